import { parseArgs, sendMail, transcribeMail } from './helper.ts';

/** Entry point of dist/voicemail-stt.js, the voicemail mail command (see helper.ts). */
async function main(): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const original = Buffer.concat(chunks).toString('utf8');
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`voicemail-stt: ${(error as Error).message}\n`);
    return sendMail(['/usr/sbin/sendmail', '-t'], original);
  }
  const message = await transcribeMail(original, {
    ...options,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  return sendMail(options.sendmail, message);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`voicemail-stt: ${(error as Error).message}\n`);
    process.exit(75);
  },
);
