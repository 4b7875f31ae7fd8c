import { authApi } from '@lp/contract/auth/api';
import { messages } from '@lp/contract/common/errors';

/** A call answered FAILURE (or a transport failure after all retries): HTTP status (0 = no answer) and the spec's text. */
export class ApiError extends Error {
  readonly status: number;
  readonly err: string;
  readonly code?: string;

  constructor(status: number, err: string, code?: string) {
    super(err);
    this.status = status;
    this.err = err;
    this.code = code;
    this.name = 'ApiError';
  }
}

/** What a failed call says to the user: the server's err for an ApiError (its message), else the error's text. */
export const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export interface ApiClientOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Called on any 401; the default clears local storage and sends the browser to sign-in. */
  onUnauthenticated?: () => void;
  attempts?: number;
  backoffMs?: number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT';
  body?: unknown;
  /** 'text' for the plain-text endpoints (GET /api/environment). */
  as?: 'json' | 'text';
  signal?: AbortSignal;
  /**
   * False for a write that must not be sent twice (decision 064): a failure is reported at once. Retrying is safe
   * for reads, idempotent writes and writes carrying one key on every attempt; `call()` decides from the contract.
   */
  retry?: boolean;
  /** Sent with every attempt alike (the Idempotency-Key of a keyed write). */
  headers?: Record<string, string>;
}

/** Spec 000 §7/§9: up to 5 attempts, waiting 100 ms x attempt number between them, no retry on 4xx. */
export const FETCH_ATTEMPTS = 5;
export const FETCH_BACKOFF_MS = 100;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let loginUrl: string = authApi.login.path;
/** The app sets the IdP entry point from GET /api/config once it is known. */
export function setLoginUrl(url: string) {
  loginUrl = url;
}

export function signInUrl(returnTo: string): string {
  return `${loginUrl}?returnTo=${encodeURIComponent(returnTo)}`;
}

export function currentPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/**
 * Spec 000 §4.1: a 401 from any call clears local storage and goes to sign-in, returning to where the user was.
 * The sign-in page replaces the page that sent there, so Back after sign-in does not bounce through it again.
 */
export function redirectToSignIn() {
  localStorage.clear();
  window.location.replace(signInUrl(currentPath()));
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export type ApiClient = <T>(path: string, options?: RequestOptions) => Promise<T>;

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const onUnauthenticated = options.onUnauthenticated ?? redirectToSignIn;
  const attempts = options.attempts ?? FETCH_ATTEMPTS;
  const backoffMs = options.backoffMs ?? FETCH_BACKOFF_MS;

  return async function request<T>(path: string, req: RequestOptions = {}): Promise<T> {
    const method = req.method ?? (req.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = {
      ...req.headers,
      'x-lp-csrf': '1',
      accept: req.as === 'text' ? 'text/plain' : 'application/json',
    };
    // A FormData body (a multipart upload) goes as it is: fetch writes its content type with the boundary.
    const payload =
      req.body === undefined ? undefined : req.body instanceof FormData ? req.body : JSON.stringify(req.body);
    if (typeof payload === 'string') headers['content-type'] = 'application/json';
    let lastError: ApiError | null = null;
    const tries = req.retry === false ? 1 : attempts;
    for (let attempt = 1; attempt <= tries; attempt++) {
      if (attempt > 1) await sleep(backoffMs * (attempt - 1));
      if (req.signal?.aborted) throw req.signal.reason ?? new ApiError(0, messages.dataTimeout);
      let res: Response;
      try {
        res = await doFetch(path, {
          method,
          headers,
          credentials: 'same-origin',
          body: payload,
          signal: req.signal,
        });
      } catch (e) {
        if (req.signal?.aborted) throw req.signal.reason ?? e;
        lastError = new ApiError(0, e instanceof Error ? e.message : String(e));
        continue;
      }
      let body: unknown;
      try {
        body = await readBody(res);
      } catch (e) {
        // A body cut off mid-way (a large page whose stream failed on the server, decision 021) is a
        // transport failure: retried like one.
        if (req.signal?.aborted) throw req.signal.reason ?? e;
        lastError = new ApiError(0, e instanceof Error ? e.message : String(e));
        continue;
      }
      if (res.status === 401) {
        onUnauthenticated();
        throw new ApiError(
          401,
          isRecord(body) && typeof body.err === 'string' ? body.err : messages.notSignedIn,
          'UNAUTHENTICATED',
        );
      }
      const failed = !res.ok || (isRecord(body) && body.status === 'FAILURE');
      if (!failed) return (req.as === 'text' && typeof body !== 'string' ? String(body ?? '') : body) as T;
      const err = isRecord(body) && typeof body.err === 'string' ? body.err : `HTTP ${res.status}`;
      const code = isRecord(body) && typeof body.code === 'string' ? body.code : undefined;
      const error = new ApiError(res.status, err, code);
      // A FAILURE answered with 2xx or any 4xx is the server's verdict: retrying cannot change it.
      if (res.status < 500) throw error;
      lastError = error;
    }
    // A call sent once reports its own failure: "failed after 1 attempt" would read as a retry that gave up.
    if (tries === 1 && lastError) throw lastError;
    throw new ApiError(lastError?.status ?? 0, messages.fetchFailed(attempts), lastError?.code);
  };
}

/** The one client every feature uses. */
export const api: ApiClient = createApiClient();
