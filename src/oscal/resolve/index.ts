/**
 * Profile resolution (NIST's specification) over the OSCAL JSON form.
 *
 *   const { document, warnings } = await resolveProfile(profileJson, { loader, base });
 *   serializeOscal(document, 'xml');
 *
 * - `profileJson` is the OSCAL JSON document `{"profile": {...}}`.
 * - `loader(href, base)` fetches each import: `href` exactly as written, `base` that of the
 *   importing document; it returns `{ document, base }` (see ImportLoader). `#uuid` imports are
 *   looked up in the importing profile's back-matter here, and their rlinks passed to the loader.
 * - Failures reject with ResolutionError: `code` (import-not-found, import-not-readable,
 *   not-a-catalog-or-profile, circular-import, invalid-profile, version-mismatch), `href` of the
 *   failing import as written, and `chain` of hrefs from the resolved profile down to it.
 * - `warnings` holds what the specification asks to report and go on from: no-match,
 *   inoperative-alter, unknown-param, duplicate-control, each with a JSON pointer into the profile.
 */
export { resolveProfile, type ResolveOptions, type ResolvedCatalog } from './resolve.js';
export type { ImportLoader, LoadedDocument } from './acquire.js';
export {
  contentNotOscal,
  ResolutionError,
  type ResolutionErrorCode,
  type ResolutionWarning,
  type ResolutionWarningCode,
} from './errors.js';
