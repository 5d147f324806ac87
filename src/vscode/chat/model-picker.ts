import * as vscode from 'vscode';
import { modelDetail, pickable, type ModelCatalog } from '../../core/agent/model-catalog';
import { readSettings } from '../settings';

interface ModelItem extends vscode.QuickPickItem {
  /** '' for automatic. */
  id: string;
}

/**
 * The model picker: the models the Models API lists for the key (active ones newest first, then
 * deprecated ones with their retirement date; retired ones never), and "Automatic" (the newest
 * Sonnet). The choice is the `mcpAgent.model` user setting, so it applies to the next turn of any chat.
 */
export async function pickModel(catalog: ModelCatalog, current: string): Promise<void> {
  const models = pickable(await catalog.list(true));
  const chosen = readSettings().model;
  const auto = await catalog.resolve(undefined);
  const items: ModelItem[] = [
    { id: '', label: `${chosen === '' ? '$(check) ' : ''}Automatic`, description: auto, detail: 'The newest active Sonnet the Models API lists' },
    ...models.map((m) => ({
      id: m.id,
      label: `${chosen === m.id ? '$(check) ' : ''}${m.lifecycle === 'deprecated' ? '$(warning) ' : ''}${m.name}`,
      description: m.id,
      detail: modelDetail(m),
    })),
  ];
  if (models.length === 0) {
    items.push({
      id: '\u0000type',
      label: 'Type a model id…',
      detail: catalog.lastError ? `The model list could not be read: ${catalog.lastError}` : 'The Models API listed no models.',
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Choose the model',
    placeHolder: `Now: ${current}`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return;
  let id = picked.id;
  if (id === '\u0000type') {
    const typed = await vscode.window.showInputBox({
      title: 'Model id',
      value: current,
      validateInput: (v) => (/^[A-Za-z0-9._:@[\]-]{1,200}$/.test(v.trim()) ? undefined : 'A model id, such as claude-sonnet-5-5'),
    });
    if (typed === undefined) return;
    id = typed.trim();
  }
  await vscode.workspace.getConfiguration('mcpAgent').update('model', id, vscode.ConfigurationTarget.Global);
}
