// A small key–value store in the browser's IndexedDB (no library): what the page keeps across
// a reload — the last uploaded trace (trace-persist.ts) and, for whoever needs it, settings.
// Values are anything the structured clone takes (objects, arrays, Blobs and Files included).
// Nothing leaves the browser. Every call resolves even where IndexedDB is missing or refuses
// (private modes, quota): reads then give undefined, writes report false, so a page never
// breaks because it could not remember something.
//
//   await kvGet<T>(key)          → the value, or undefined
//   await kvSet(key, value)      → true when stored
//   await kvDelete(key)          → true when gone
const DB_NAME = 'spindle';
const DB_VERSION = 1;
const STORE = 'kv';

let opening: Promise<IDBDatabase | null> | null = null;

function openDb(): Promise<IDBDatabase | null> {
  opening ??= new Promise<IDBDatabase | null>((resolve) => {
    if (typeof indexedDB === 'undefined') {
      resolve(null);
      return;
    }
    let req: IDBOpenDBRequest;
    try {
      req = indexedDB.open(DB_NAME, DB_VERSION);
    } catch {
      resolve(null);
      return;
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
    };
    req.onsuccess = () => {
      const db = req.result;
      // another tab upgrading the schema: let it, and open again next time
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
  return opening;
}

function run<T>(
  mode: IDBTransactionMode,
  op: (store: IDBObjectStore) => IDBRequest,
  fallback: T,
  map: (result: unknown) => T,
): Promise<T> {
  return openDb().then(
    (db) =>
      new Promise<T>((resolve) => {
        if (db === null) {
          resolve(fallback);
          return;
        }
        let tx: IDBTransaction;
        let req: IDBRequest;
        try {
          tx = db.transaction(STORE, mode);
          req = op(tx.objectStore(STORE));
        } catch {
          resolve(fallback);
          return;
        }
        // a write counts once the transaction is committed, a read once the request succeeds
        if (mode === 'readonly') req.onsuccess = () => resolve(map(req.result));
        else tx.oncomplete = () => resolve(map(req.result));
        req.onerror = (e) => {
          e.preventDefault(); // handled here: not an uncaught error in the console
          resolve(fallback);
        };
        tx.onabort = () => resolve(fallback);
      }),
  );
}

export function kvGet<T>(key: string): Promise<T | undefined> {
  return run<T | undefined>(
    'readonly',
    (s) => s.get(key),
    undefined,
    (r) => r as T | undefined,
  );
}

export function kvSet(key: string, value: unknown): Promise<boolean> {
  return run(
    'readwrite',
    (s) => s.put(value, key),
    false,
    () => true,
  );
}

export function kvDelete(key: string): Promise<boolean> {
  return run(
    'readwrite',
    (s) => s.delete(key),
    false,
    () => true,
  );
}
