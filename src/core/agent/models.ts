/**
 * The model a chat uses unless the person picks another: the CLI, the extension's setting and
 * package.json's `mcpAgent.model` default all read this one name (a unit test keeps package.json
 * equal to it and checks the shipped SDK does not list it as deprecated, which would warn on every
 * call and end the agent on the model's end-of-life date).
 */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/** The input window assumed for a model the Models API does not list (every current Claude model has at least this). */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
