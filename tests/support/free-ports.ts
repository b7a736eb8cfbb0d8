/**
 * Free TCP ports on 127.0.0.1 for the browser tests' servers (playwright.config.ts,
 * playwright.cluster.config.ts), so a run never depends on fixed ports being free. The search starts at the
 * usual port (3100 for the browser tests, 3600 for the cluster) and moves up past any that is taken: below
 * the system's ephemeral range (32768 and up on Linux), where no outgoing connection is given a port, so the
 * port stays free between this look and the server's own listen. Playwright loads a config synchronously,
 * so the ports are asked of the system in a short child process: it holds each free port until it has
 * `count` of them, prints them and closes them again.
 */
import { execFileSync } from 'node:child_process';

const SCRIPT = `
const net = require('node:net');
const [from, count] = process.argv.slice(1).map(Number);
const held = [];
const tryPort = (port) => new Promise((resolve) => {
  const server = net.createServer();
  server.once('error', () => resolve(null));
  server.listen(port, '127.0.0.1', () => resolve(server));
});
(async () => {
  for (let port = from; port < from + 1000 && held.length < count; port += 1) {
    const server = await tryPort(port);
    if (server) held.push(server);
  }
  process.stdout.write(held.map((server) => server.address().port).join(' '));
  for (const server of held) server.close();
})();
`;

/** `count` distinct ports from `from` upwards that nothing listened on a moment ago. */
export function freePorts(from: number, count: number): number[] {
  const output = execFileSync(process.execPath, ['-e', SCRIPT, String(from), String(count)], { encoding: 'utf8' });
  const ports = output.trim().split(' ').map(Number);
  if (ports.length !== count || ports.some((port) => !Number.isInteger(port) || port <= 0)) throw new Error(`No ${count} free ports from ${from}: ${output}`);
  return ports;
}
