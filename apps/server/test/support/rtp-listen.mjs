// Receives the RTP of one call (run inside the lab's namespace: node rtp-listen.mjs <port> <file>) and appends each
// packet's payload to <file>, so a test can decode what a phone heard with sox. Prints "listening" once bound.
import dgram from 'node:dgram';
import fs from 'node:fs';

const [port, file] = process.argv.slice(2);
const out = fs.openSync(file, 'a');
const socket = dgram.createSocket('udp4');
socket.on('message', (packet) => {
  // RTP header: 12 bytes plus 4 per contributing source (CC, the low nibble of the first byte).
  const header = 12 + (packet[0] & 0x0f) * 4;
  if (packet.length > header) fs.writeSync(out, packet.subarray(header));
});
socket.bind(Number(port), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => {
  fs.closeSync(out);
  process.exit(0);
});
