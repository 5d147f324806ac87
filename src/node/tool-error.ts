/** An error a person can act on: its message goes back to the model and the user as is. */
export class ToolError extends Error {
  override name = 'ToolError';
}
