/** One exchange of a console dialogue: wait for a prompt, then type a line. */
export interface DialogueStep {
  /** Matched against what the device printed since the previous step. */
  expect: RegExp;
  /** The line to type (without line end); a function chooses it from what was printed. */
  send?: string | ((printed: string) => string);
  /** Output meaning the previous command failed (checked on what was printed before the prompt). */
  failOn?: RegExp;
  timeoutMs?: number;
  /** Pause before typing, for devices that need a moment after a command completes. */
  delayMs?: number;
  /** After typing, the dialogue is over when this says so (for questions that may or may not follow). */
  endsDialogue?: (printed: string) => boolean;
}

export class DialogueError extends Error {
  constructor(
    message: string,
    readonly transcript: string,
  ) {
    super(message);
  }
}

/** The device refused the console login (SSH authentication). */
export class LoginRefusedError extends DialogueError {}

/** What a transport (telnet, SSH) tells the dialogue. */
export interface DialogueEvents {
  /** The console is open: the first step's timer starts. */
  ready(): void;
  /** Text the device printed (negotiation removed, without carriage returns). */
  data(text: string): void;
  /** The connection failed; `loginRefused` when the device refused the credentials. */
  error(message: string, loginRefused?: boolean): void;
  /** The device closed the connection. */
  closed(): void;
}

/** What the dialogue asks of a transport. */
export interface DialogueConnection {
  /** Types one line (the transport adds its line end). */
  sendLine(line: string): void;
  /** Nothing more will be typed: the device may hang up (after a reload). */
  end(): void;
  /** Frees the connection; called exactly once when the dialogue is over, whatever the outcome. */
  destroy(): void;
}

/**
 * Plays the steps over a connection the `open` callback makes. Resolves with the transcript when
 * every step ran; the device may close the connection after the last one (a reload). Every path
 * ends in `destroy()`, and no timer outlives the dialogue.
 */
export function runDialogue(
  steps: DialogueStep[],
  open: (events: DialogueEvents) => DialogueConnection,
  options: { connectTimeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    let connection: DialogueConnection | undefined;
    let transcript = '';
    let pending = '';
    let lastLine: string | undefined;
    let index = 0;
    let timer: NodeJS.Timeout | undefined;
    let delay: NodeJS.Timeout | undefined;
    let finished = false;

    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(delay);
      connection?.destroy();
      if (error) reject(error);
      else resolve(transcript);
    };
    const fail = (message: string, loginRefused = false) =>
      finish(loginRefused ? new LoginRefusedError(message, transcript) : new DialogueError(message, transcript));
    const arm = (ms: number, what: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(`No answer from the gateway while ${what}`), ms);
    };

    const advance = () => {
      while (!finished && index < steps.length) {
        const step = steps[index] as DialogueStep;
        const match = step.expect.exec(pending);
        if (!match) return;
        const printed = pending.slice(0, match.index + match[0].length);
        // The device's echo of the previous line is not its answer.
        const answer = printed.slice(0, match.index).replace(lastLine ?? '', '');
        if (step.failOn?.test(answer)) {
          fail(`The gateway reported an error: ${lastLines(printed)}`);
          return;
        }
        pending = pending.slice(match.index + match[0].length);
        index += 1;
        const line = typeof step.send === 'function' ? step.send(printed) : step.send;
        const next = step.endsDialogue?.(printed) ? undefined : steps[index];
        if (!next) index = steps.length;
        const act = () => {
          if (finished) return;
          if (line !== undefined) {
            transcript += `${line}\n`;
            lastLine = line;
            connection?.sendLine(line);
          }
          if (!next) {
            // The last line is often a reload: let it reach the device, which then hangs up.
            connection?.end();
            clearTimeout(timer);
            timer = setTimeout(() => finish(), 2000);
          }
        };
        if (next) arm((step.delayMs ?? 0) + (next.timeoutMs ?? 10_000), `waiting for ${next.expect}`);
        if (step.delayMs) delay = setTimeout(act, step.delayMs);
        else act();
      }
    };

    timer = setTimeout(() => fail('Could not connect to the gateway'), options.connectTimeoutMs ?? 5000);
    connection = open({
      ready: () => {
        if (finished) return;
        arm(steps[0]?.timeoutMs ?? 10_000, `waiting for ${steps[0]?.expect}`);
      },
      data: (text) => {
        if (finished) return;
        transcript += text;
        pending += text;
        advance();
      },
      error: (message, loginRefused) => fail(message, loginRefused),
      closed: () => {
        if (index >= steps.length) finish();
        else fail('The gateway closed the connection');
      },
    });
    // The transport may have failed before open() returned.
    if (finished) connection.destroy();
  });
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' / ');
}
