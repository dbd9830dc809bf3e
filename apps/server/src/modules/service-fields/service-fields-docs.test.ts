import { readFileSync } from 'node:fs';
import { serviceFieldSchema, serviceFieldsMarkdown } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVICES, DEMO_SERVICE_FIELDS } from '../../demo/seed';

// Issue 33 item 2: docs/api.md shows each demo service's fields and an example ping and post,
// generated from the definitions; this keeps the file equal to what they generate.
const apiMd = readFileSync(new URL('../../../../../docs/api.md', import.meta.url), 'utf8');

describe('docs/api.md "Service fields"', () => {
  it.each(Object.entries(DEMO_SERVICE_FIELDS))('shows %s as its definitions generate it', (service, fields) => {
    const label = DEFAULT_SERVICES.find((s) => s.name === service)?.label ?? service;
    expect(apiMd).toContain(
      serviceFieldsMarkdown(
        service,
        label,
        fields.map((f) => serviceFieldSchema.parse(f)),
      ),
    );
  });

  it('every demo field is valid and the demo services exist', () => {
    for (const [service, fields] of Object.entries(DEMO_SERVICE_FIELDS)) {
      expect(DEFAULT_SERVICES.map((s) => s.name)).toContain(service);
      for (const f of fields) expect(serviceFieldSchema.safeParse(f).success, f.key).toBe(true);
    }
  });
});
