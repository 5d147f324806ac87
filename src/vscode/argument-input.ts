import * as vscode from 'vscode';

/** One value to ask for: a prompt's argument or a resource template's variable. */
interface ArgumentSpec {
  name: string;
  description?: string;
  required?: boolean;
}

export interface ArgumentInputOptions {
  /** What the values are for, e.g. the prompt's title or the template. */
  title: string;
  args: readonly ArgumentSpec[];
  /** Values the person already gave (e.g. typed after `/prompt`): not asked again, and sent as context. */
  given?: Readonly<Record<string, string>>;
  /**
   * The server's suggestions (`completion/complete`) for one argument, given what is typed so far and the
   * arguments entered before it. Left out when the server offers no completions.
   */
  complete?: (name: string, value: string, context: Record<string, string>) => Promise<string[]>;
  /** Quiet time after a keystroke before the server is asked. Default 150 ms. */
  debounceMs?: number;
  /** Makes the QuickPick (tests pass one they can watch); default vscode.window.createQuickPick. */
  createQuickPick?: () => vscode.QuickPick<vscode.QuickPickItem>;
}

const DEFAULT_DEBOUNCE_MS = 150;
/** The spec caps a completion at 100 values; a server that sends more gets its first 100 shown. */
const MAX_SUGGESTIONS = 100;

/**
 * Asks for each argument in turn in a QuickPick that offers the server's suggestions as the person types
 * (free text stays allowed: what is typed is the first item). Resolves with the values given (an optional
 * argument left empty is left out), or undefined when the person cancels.
 */
export async function askArguments(options: ArgumentInputOptions): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = { ...options.given };
  for (const [i, arg] of options.args.entries()) {
    if (values[arg.name]) continue;
    const value = await askOne(options, arg, i, { ...values });
    if (value === undefined) return undefined;
    if (value) values[arg.name] = value;
  }
  return values;
}

const TYPED = 'as typed';

function askOne(options: ArgumentInputOptions, arg: ArgumentSpec, index: number, context: Record<string, string>): Promise<string | undefined> {
  const qp = options.createQuickPick?.() ?? vscode.window.createQuickPick();
  qp.title = `${options.title}: ${arg.name}${arg.required ? '' : ' (optional)'}`;
  qp.step = index + 1;
  qp.totalSteps = options.args.length;
  qp.placeholder = arg.description ?? (arg.required ? `A value for ${arg.name}` : `A value for ${arg.name}, or Enter to leave it out`);
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = false;
  let suggestions: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  // Each request gets a number; an answer that is not the newest one's is dropped (it answers older text).
  let asked = 0;
  let required = false;
  const notice: vscode.QuickPickItem = { label: `$(warning) ${arg.name} is required: type a value or pick one`, alwaysShow: true };

  const render = (): void => {
    const typed = qp.value.trim();
    const items: vscode.QuickPickItem[] = [];
    if (required && !typed) items.push(notice);
    if (typed && !suggestions.includes(typed)) items.push({ label: typed, description: TYPED, alwaysShow: true });
    // The server filtered already: VS Code must not hide what does not match its own fuzzy idea.
    for (const s of suggestions) items.push({ label: s, alwaysShow: true });
    qp.items = items;
  };

  const ask = (value: string): void => {
    const complete = options.complete;
    if (!complete) return;
    const mine = ++asked;
    qp.busy = true;
    void complete(arg.name, value, context)
      .catch(() => [] as string[])
      .then((values) => {
        if (mine !== asked) return;
        qp.busy = false;
        suggestions = values.slice(0, MAX_SUGGESTIONS);
        render();
      });
  };

  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (value: string | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      asked++;
      resolve(value);
      qp.dispose();
    };
    qp.onDidChangeValue((value) => {
      required = false;
      render();
      clearTimeout(timer);
      timer = setTimeout(() => ask(value), options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    });
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0] ?? qp.activeItems[0];
      const value = picked && picked !== notice ? picked.label : qp.value.trim();
      if (!value && arg.required) {
        required = true;
        render();
        return;
      }
      finish(value);
    });
    qp.onDidHide(() => finish(undefined));
    render();
    qp.show();
    ask('');
  });
}
