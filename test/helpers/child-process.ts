/** For tests that start the real binary in a process of its own. */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A TCP port free on 127.0.0.1 at the time of the call. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0] as number;
}

/** `n` TCP ports free on 127.0.0.1 at the time of the call, all different (held open together). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => net.createServer());
  await Promise.all(servers.map((srv) => new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))));
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
  return ports;
}

/** Everything the process writes on stdout and stderr, interleaved, as it arrives. */
export function captureOutput(child: ChildProcess): { readonly text: string } {
  const captured = { text: '' };
  child.stdout?.on('data', (d) => {
    captured.text += d;
  });
  child.stderr?.on('data', (d) => {
    captured.text += d;
  });
  return captured;
}
