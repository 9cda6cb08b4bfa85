// The lesson list (public/scenarios/index.json) and scenario files, fetched relative to the
// page so it works under any sub-path (vite `base: './'`).
export interface LessonEntry {
  file: string;
  title: string;
}

export interface LessonIndex {
  lessons: LessonEntry[];
  default: string;
}

export const INDEX_URL = 'scenarios/index.json';
export const scenarioUrl = (file: string) => `scenarios/${file}`;

export async function fetchJson(url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (err) {
    // fetch rejects with a bare "Failed to fetch": say which file, and the likely cause
    throw new Error(
      `Could not load ${url}: the request failed (offline, or the server is unreachable) ` +
        `and no copy is cached (${errorText(err)})`,
      { cause: err },
    );
  }
  if (!response.ok) throw new Error(`Could not load ${url}: HTTP ${response.status}`);
  try {
    return await response.json();
  } catch (err) {
    throw new Error(`${url} is not valid JSON: ${errorText(err)}`, { cause: err });
  }
}

export async function fetchLessonIndex(): Promise<LessonIndex> {
  const json = (await fetchJson(INDEX_URL)) as Partial<LessonIndex>;
  if (!Array.isArray(json.lessons)) throw new Error(`${INDEX_URL} has no "lessons" list`);
  return { lessons: json.lessons, default: json.default ?? json.lessons[0]?.file ?? '' };
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
