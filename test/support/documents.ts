/** Small hand-written OSCAL documents for reader tests; line numbers matter to the tests that use them. */
export const UUID = '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1';

export function catalogXml(metadataExtra = '', body = '', version = '1.1.2'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="${UUID}">
  <metadata>
    <title>Test catalog</title>
    <last-modified>2024-01-01T00:00:00Z</last-modified>
    <version>1.0</version>
    <oscal-version>${version}</oscal-version>${metadataExtra}
  </metadata>${body}
</catalog>
`;
}

/** A catalog in JSON whose lines the tests count on: metadata fields on lines 5 to 8. */
export function catalogJson(metadataExtra = '', body = ''): string {
  return `{
  "catalog": {
    "uuid": "${UUID}",
    "metadata": {
      "title": "T",
      "last-modified": "2024-01-01T00:00:00Z",
      "version": "1.0",
      "oscal-version": "1.1.2"${metadataExtra}
    }${body}
  }
}`;
}

export function profileYaml(extra = ''): string {
  return `---
profile:
  uuid: ${UUID}
  metadata:
    title: Test profile
    last-modified: 2024-01-01T00:00:00Z
    version: 1.0
    oscal-version: 1.1.2
  imports:
    - href: "#b"
      include-all: {}
  merge:
    as-is: true
${extra}`;
}

/** Every control of a catalog's JSON form, at any depth, in document order. */
export function controlsIn(node: any, out: any[] = []): any[] {
  if (Array.isArray(node)) for (const n of node) controlsIn(n, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'controls') out.push(...(value as unknown[]));
      controlsIn(value, out);
    }
  }
  return out;
}
