// Types for code-server.mjs, so TypeScript tests and the launcher can import it.
export interface VscodeTarget {
  name: 'oldest' | 'today';
  /** The code-server release from npm. */
  codeServer: string;
  /** The VS Code it bundles. */
  vscode: string;
  /** The Node it runs on, from the npm registry; undefined: this process's Node. */
  node: string | undefined;
  /** What code-server needs to honour a workbench URL's dev payload (extensionDevelopmentPath, extensionTestsPath). */
  payloadArgs: string[];
}
export declare const VSCODE_TARGETS: Record<VscodeTarget['name'], VscodeTarget>;
/** The target named (default: MCP_AGENT_VSCODE, else 'oldest'). */
export declare function vscodeTarget(name?: string): VscodeTarget;
export declare const CODE_SERVER_VERSION: string;
export declare function mcpAgentCache(): string;
export declare function codeServerDir(target?: VscodeTarget): string;
export declare function codeServerEntry(dir?: string): string;
export declare function codeServerNode(target?: VscodeTarget): string;

export interface CodeServerOptions {
  /** code-server's out/node/entry.js, run on this process's Node; defaults to the target's cached install. */
  entry?: string;
  /** Which VS Code: 'oldest' or 'today' (default: MCP_AGENT_VSCODE, else 'oldest'). */
  target?: string;
  host?: string;
  /** 0 or unset: a free port the OS picks. */
  port?: number;
  /** Folder for user data, extensions, HOME and the log; a fresh temp dir (removed on stop) when unset. */
  root?: string;
  keepRoot?: boolean;
  userDataDir?: string;
  extensionsDir?: string;
  logFile?: string;
  /** Merged over `{"workbench.startupEditor": "none", ...}` into User/settings.json. */
  settings?: Record<string, unknown>;
  /** true: leave an existing User/settings.json alone (`npm start`, where the person's edits persist). */
  keepExistingSettings?: boolean;
  /** Extra environment for code-server and so for the extension host (ANTHROPIC_BASE_URL, MCP_AGENT_*...). */
  env?: Record<string, string>;
  /** true: the workbench is opened with a dev payload (workbenchUrl's `dev`): the extension or the tests from a folder. */
  devPayload?: boolean;
  /** true: leave workspace trust on (for Restricted Mode tests). */
  workspaceTrust?: boolean;
  extraArgs?: string[];
  /** VSIX files installed into extensionsDir before the server starts. */
  installExtensions?: string[];
  onOutput?: (text: string) => void;
}

export interface CodeServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  port: number;
  /** Also the process group id. */
  pid: number;
  root: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  exited: Promise<number | string | null>;
  /** Kills the whole process group and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

export declare function startCodeServer(opts?: CodeServerOptions): Promise<CodeServer>;

export declare function workbenchUrl(serverUrl: string, folder: string, dev?: { extensionDevelopmentPath?: string; extensionTestsPath?: string }): string;
