// The ids a search finds objects by: of controls, their parts and parameters, and links to them.

/** A control id as NIST writes them: family, number, enhancement numbers (ac-2, ac-02.01, si-4.10). */
const CONTROL_SHAPED = /^[a-z][a-z0-9]*-\d+(?:\.\d+)*$/;
const LEADING_ZEROS = /(^|[-.])0+(?=\d)/g;

/**
 * The control that a part, objective or parameter id names by NIST's convention of prefixing
 * the control id (ac-2_smt.a, ac-6.1_obj, ac-2_prm_1): a profile or SSP names parameters and
 * statements of a catalog it does not hold, so the id is all there is to go on. Rev. 5 pads
 * parameter ids (ac-06.01_odp.01) where its control ids are not (ac-6.1), so zeros are dropped
 * to give the control id in the form documents use. Undefined for ids without that shape.
 */
export function controlOfPartId(id: string): string | undefined {
  const cut = id.indexOf('_');
  if (cut <= 0) return undefined;
  const prefix = id.slice(0, cut).toLowerCase();
  return CONTROL_SHAPED.test(prefix) ? prefix.replace(LEADING_ZEROS, '$1') : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id a link within the document names (`#ac-3` names ac-3); none for other links, nor for uuids, which are not words. */
export function linkedId(href: string): string | undefined {
  if (!href.startsWith('#')) return undefined;
  const id = href.slice(1);
  return id === '' || UUID.test(id) ? undefined : id;
}
