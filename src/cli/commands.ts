// The registry of CLI commands; each command lives in its own module under ./commands/.
export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, Command> = {};
