/**
 * VS Code's Light+, Dark+ and both high-contrast themes as the --vscode-* variables a webview receives, plus
 * the default stylesheet VS Code injects into every webview, so the harness looks like the real panel.
 */
export type Theme = 'light' | 'dark' | 'hc-dark' | 'hc-light';

export const THEMES: readonly Theme[] = ['light', 'dark', 'hc-dark', 'hc-light'];

const common = {
  'font-family': '-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  'editor-font-size': '13px',
  'panel-border': 'rgba(128, 128, 128, 0.35)',
  'progressBar-background': '#0e70c0',
  'testing-iconFailed': '#f14c4c',
  'textBlockQuote-border': 'rgba(0, 122, 204, 0.5)',
  'inputValidation-errorBorder': '#be1100',
  'inputValidation-warningBorder': '#b89500',
  'button-foreground': '#ffffff',
  'button-secondaryForeground': '#ffffff',
};

const dark = {
  ...common,
  foreground: '#cccccc',
  descriptionForeground: 'rgba(204, 204, 204, 0.7)',
  'icon-foreground': '#c5c5c5',
  'sideBar-background': '#252526',
  'editor-background': '#1e1e1e',
  'editor-foreground': '#d4d4d4',
  'editorWidget-background': '#252526',
  'editorCursor-foreground': '#aeafad',
  'input-background': '#3c3c3c',
  'input-foreground': '#cccccc',
  'input-placeholderForeground': '#a6a6a6',
  focusBorder: '#007fd4',
  'button-background': '#0e639c',
  'button-hoverBackground': '#1177bb',
  'button-secondaryBackground': '#3a3d41',
  'button-secondaryHoverBackground': '#45494e',
  'textLink-foreground': '#3794ff',
  'textLink-activeForeground': '#3794ff',
  'textCodeBlock-background': 'rgba(10, 10, 10, 0.4)',
  'textPreformat-foreground': '#d7ba7d',
  'textBlockQuote-background': 'rgba(127, 127, 127, 0.1)',
  errorForeground: '#f48771',
  'editorWarning-foreground': '#cca700',
  'inputValidation-errorBackground': '#5a1d1d',
  'inputValidation-warningBackground': '#352a05',
  'testing-iconPassed': '#73c991',
  'toolbar-hoverBackground': 'rgba(90, 93, 94, 0.31)',
  'list-hoverBackground': '#2a2d2e',
  'chat-requestBackground': 'rgba(30, 30, 30, 0.62)',
  'chat-requestBorder': 'rgba(204, 204, 204, 0.1)',
  'scrollbarSlider-background': 'rgba(121, 121, 121, 0.4)',
};

const light = {
  ...common,
  foreground: '#616161',
  descriptionForeground: '#717171',
  'icon-foreground': '#424242',
  'sideBar-background': '#f3f3f3',
  'editor-background': '#ffffff',
  'editor-foreground': '#000000',
  'editorWidget-background': '#f3f3f3',
  'editorCursor-foreground': '#000000',
  'input-background': '#ffffff',
  'input-foreground': '#616161',
  'input-placeholderForeground': '#767676',
  focusBorder: '#0090f1',
  'button-background': '#007acc',
  'button-hoverBackground': '#0062a3',
  'button-secondaryBackground': '#5f6a79',
  'button-secondaryHoverBackground': '#4c5561',
  'textLink-foreground': '#006ab1',
  'textLink-activeForeground': '#006ab1',
  'textCodeBlock-background': 'rgba(220, 220, 220, 0.4)',
  'textPreformat-foreground': '#a31515',
  'textBlockQuote-background': 'rgba(242, 242, 242, 0.5)',
  errorForeground: '#a1260d',
  'editorWarning-foreground': '#bf8803',
  'inputValidation-errorBackground': '#f2dede',
  'inputValidation-warningBackground': '#f6f5d2',
  'testing-iconPassed': '#388a34',
  'toolbar-hoverBackground': 'rgba(184, 184, 184, 0.31)',
  'list-hoverBackground': '#e8e8e8',
  'chat-requestBackground': 'rgba(255, 255, 255, 0.62)',
  'chat-requestBorder': 'rgba(97, 97, 97, 0.1)',
  'scrollbarSlider-background': 'rgba(100, 100, 100, 0.4)',
};

/*
 * The high-contrast themes as the chat webview received them in code-server 4.100.3 (VS Code 1.100) with
 * "Default High Contrast" and "Default High Contrast Light", read from its <html> style: the variables the chat's
 * CSS uses, and no others. A variable these themes leave unset is absent here too (as it is there), so the
 * CSS fallbacks are what gets tested.
 */
const hcDark = {
  'button-border': '#6fc3df',
  'button-foreground': '#ffffff',
  'button-secondaryForeground': '#ffffff',
  'chat-requestBackground': '#0c141f',
  'chat-requestBorder': '#6fc3df',
  contrastBorder: '#6fc3df',
  descriptionForeground: 'rgba(255, 255, 255, 0.7)',
  'editor-background': '#000000',
  'editor-font-family': "'Droid Sans Mono', 'monospace', monospace",
  'editor-font-size': '14px',
  'editor-foreground': '#ffffff',
  'editorCursor-foreground': '#ffffff',
  'editorSuggestWidget-background': '#0c141f',
  'editorSuggestWidget-foreground': '#ffffff',
  'editorWarning-foreground': '#ffd370',
  'editorWidget-background': '#0c141f',
  'editorWidget-border': '#6fc3df',
  errorForeground: '#f48771',
  focusBorder: '#f38518',
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  foreground: '#ffffff',
  'icon-foreground': '#ffffff',
  'input-background': '#000000',
  'input-border': '#6fc3df',
  'input-foreground': '#ffffff',
  'input-placeholderForeground': 'rgba(255, 255, 255, 0.7)',
  'inputValidation-errorBackground': '#000000',
  'inputValidation-errorBorder': '#6fc3df',
  'inputValidation-warningBackground': '#000000',
  'inputValidation-warningBorder': '#6fc3df',
  'list-focusOutline': '#f38518',
  'list-hoverBackground': 'rgba(255, 255, 255, 0.1)',
  'panel-border': '#6fc3df',
  'progressBar-background': '#6fc3df',
  'scrollbarSlider-background': 'rgba(111, 195, 223, 0.6)',
  'sideBar-background': '#000000',
  'testing-iconFailed': '#f14c4c',
  'testing-iconPassed': '#73c991',
  'textBlockQuote-border': '#ffffff',
  'textCodeBlock-background': '#000000',
  'textLink-activeForeground': '#21a6ff',
  'textLink-foreground': '#21a6ff',
  'textPreformat-background': '#ffffff',
  'textPreformat-foreground': '#000000',
  'widget-border': '#6fc3df',
};

const hcLight = {
  'button-background': '#0f4a85',
  'button-border': '#0f4a85',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#0f4a85',
  'button-secondaryBackground': '#ffffff',
  'button-secondaryForeground': '#292929',
  'chat-requestBorder': '#0f4a85',
  contrastBorder: '#0f4a85',
  descriptionForeground: 'rgba(41, 41, 41, 0.7)',
  'editor-background': '#ffffff',
  'editor-font-family': "'Droid Sans Mono', 'monospace', monospace",
  'editor-font-size': '14px',
  'editor-foreground': '#292929',
  'editorCursor-foreground': '#0f4a85',
  'editorSuggestWidget-background': '#ffffff',
  'editorSuggestWidget-foreground': '#292929',
  'editorWarning-foreground': '#895503',
  'editorWidget-background': '#ffffff',
  'editorWidget-border': '#0f4a85',
  errorForeground: '#b5200d',
  focusBorder: '#006bbd',
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  foreground: '#292929',
  'icon-foreground': '#292929',
  'input-background': '#ffffff',
  'input-border': '#0f4a85',
  'input-foreground': '#292929',
  'input-placeholderForeground': 'rgba(41, 41, 41, 0.7)',
  'inputValidation-errorBackground': '#ffffff',
  'inputValidation-errorBorder': '#0f4a85',
  'inputValidation-warningBackground': '#ffffff',
  'inputValidation-warningBorder': '#0f4a85',
  'list-activeSelectionBackground': 'rgba(15, 74, 133, 0.1)',
  'list-focusOutline': '#006bbd',
  'list-hoverBackground': 'rgba(15, 74, 133, 0.1)',
  'panel-border': '#0f4a85',
  'progressBar-background': '#0f4a85',
  'scrollbarSlider-background': 'rgba(15, 74, 133, 0.4)',
  'sideBar-background': '#ffffff',
  'testing-iconFailed': '#b5200d',
  'testing-iconPassed': '#007100',
  'textBlockQuote-background': '#f2f2f2',
  'textBlockQuote-border': '#292929',
  'textCodeBlock-background': '#f2f2f2',
  'textLink-activeForeground': '#0f4a85',
  'textLink-foreground': '#0f4a85',
  'textPreformat-background': '#09345f',
  'textPreformat-foreground': '#ffffff',
  'widget-border': '#0f4a85',
};

const VARIABLES: Record<Theme, Record<string, string>> = { light, dark, 'hc-dark': hcDark, 'hc-light': hcLight };

/** The classes VS Code puts on a webview's <body> for each theme kind. */
export function bodyClass(theme: Theme): string {
  return { light: 'vscode-light', dark: 'vscode-dark', 'hc-dark': 'vscode-high-contrast', 'hc-light': 'vscode-high-contrast-light vscode-high-contrast' }[
    theme
  ];
}

export function isTheme(value: string | null): value is Theme {
  return THEMES.includes(value as Theme);
}

export function themeCss(theme: Theme): string {
  const vars = VARIABLES[theme];
  const decls = Object.entries(vars)
    .map(([k, v]) => `--vscode-${k}: ${v};`)
    .join(' ');
  return `html { ${decls} background: var(--vscode-sideBar-background); }`;
}

/** Close to the `_defaultStyles` VS Code adds to each webview (the body padding matters most). */
export const VSCODE_DEFAULT_CSS = `
html { scrollbar-color: var(--vscode-scrollbarSlider-background) transparent; }
body { background-color: transparent; color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family);
  font-weight: var(--vscode-font-weight); font-size: var(--vscode-font-size); margin: 0; padding: 0 20px; }
img, video { max-width: 100%; max-height: 100%; }
a, a code { color: var(--vscode-textLink-foreground); }
code { color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }
blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
::-webkit-scrollbar { width: 10px; height: 10px; }
::-webkit-scrollbar-thumb { background-color: var(--vscode-scrollbarSlider-background); }
`;
