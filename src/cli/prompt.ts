import readline from 'node:readline/promises';
import { Writable } from 'node:stream';

/**
 * Asks on the terminal; a secret's keystrokes are not echoed (the prompt itself is). Without a
 * terminal on stdin it throws `noTerminal()`.
 */
export async function ask(question: string, secret: boolean, noTerminal: () => Error): Promise<string> {
  if (!process.stdin.isTTY) throw noTerminal();
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = rl.question(question);
    muted = secret;
    return (await answer).trim();
  } finally {
    rl.close();
    if (secret) process.stderr.write('\n');
  }
}

/** Everything piped to stdin, without the final newline. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
