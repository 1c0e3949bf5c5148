// A refusal or failure an operator can act on (a running server, a missing program, a backup
// newer than the code): its message is the whole story, shown on one line without a stack.

export class OperatorError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'OperatorError';
  }
}

/** One line for the terminal: an error's message with its line breaks folded. */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}
