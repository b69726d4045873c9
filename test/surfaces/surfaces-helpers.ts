import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const STANDARDS = path.resolve(import.meta.dirname, '../fixtures/standards');

/** Validates with libxml2's xmllint against a sitemaps.org XSD in test/fixtures/standards; throws with its message otherwise. */
export function xmllint(xml: string, xsd: 'sitemap-0.9.xsd' | 'siteindex-0.9.xsd'): void {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'surfaces-')), 'doc.xml');
  writeFileSync(file, xml);
  execFileSync('xmllint', ['--noout', '--schema', path.join(STANDARDS, xsd), file], { stdio: 'pipe' });
}
