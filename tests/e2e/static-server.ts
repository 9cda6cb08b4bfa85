// A tiny static file server for the e2e tests: serves a folder under a sub-path on 127.0.0.1
// and a random port (TESTING.md pitfalls 2 and 7 — no `vite preview` child process to orphan).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  /** The page's URL, ending in `/` as a relative-base build needs. */
  url: string;
  close(): Promise<void>;
}

/** Serve `root` at http://127.0.0.1:<random port><basePath>; `basePath` starts and ends with `/`. */
export async function serveStatic(root: string, basePath: string): Promise<StaticServer> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === basePath.slice(0, -1)) {
      res.writeHead(301, { location: basePath }).end();
      return;
    }
    if (!path.startsWith(basePath)) {
      res.writeHead(404).end('outside the served sub-path');
      return;
    }
    const rel = path.slice(basePath.length) || 'index.html';
    const file = normalize(join(root, rel));
    if (!file.startsWith(normalize(root) + sep)) {
      res.writeHead(403).end();
      return;
    }
    stat(file)
      .then((s) => (s.isFile() ? s.size : null))
      .catch(() => null)
      .then((size) => {
        if (size === null) {
          res.writeHead(404).end('not found');
          return;
        }
        const type = contentTypes[extname(file)] ?? 'application/octet-stream';
        res.writeHead(200, { 'content-type': type, 'content-length': size });
        createReadStream(file).pipe(res);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
