// fetchJson's failures name the file and what went wrong (issue 16 item 7: offline, a bare
// "Failed to fetch" told the reader nothing).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchJson } from '../../src/app/lessons';

describe('fetchJson', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a request that fails (offline, nothing cached) names the file and the cause', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetchJson('scenarios/merging.json')).rejects.toThrow(
      /^Could not load scenarios\/merging\.json: the request failed \(offline.*Failed to fetch/,
    );
  });

  it('an HTTP error names the file and the status', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('nope', { status: 404 })));
    await expect(fetchJson('scenarios/x.json')).rejects.toThrow(
      'Could not load scenarios/x.json: HTTP 404',
    );
  });
});
