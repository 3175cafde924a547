import { api, type ApiRequest, type ApiResponse } from './http.js';

/** api() with a time limit: one stuck request must fail its test, not hang the file. */
export function timedApi(
  base: string,
  method: string,
  path: string,
  options: ApiRequest = {},
  ms = 5_000,
): Promise<ApiResponse> {
  return api(base, method, path, { ...options, timeoutMs: ms });
}
