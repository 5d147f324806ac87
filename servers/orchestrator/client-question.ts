/** One choice asked of the person through the MCP client (form elicitation): the choice made, or undefined when none was. */
export type AskChoice = (
  question: { message: string; title: string; description: string; choices: string[] },
  signal: AbortSignal,
) => Promise<string | undefined>;
