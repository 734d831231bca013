import http, { type RequestListener, type Server } from 'node:http';

/** Starts an HTTP server and resolves once it listens (port 0 picks a free port). */
export function listen(handler: RequestListener, port: number, host: string): Promise<Server> {
  const server = http.createServer(handler);
  // Bound how long a slow client may take to send its headers and body.
  server.headersTimeout = 30_000;
  server.requestTimeout = 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
