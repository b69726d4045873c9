import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (longest first, failed first), except that the solo and blog files, which share one
 * group of two workers, alternate: the two workers then mostly hold one of each (test/schedule.ts).
 */
export class PairingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const of = (name: string) => sorted.filter((s) => s.project.name === name);
    const [solo, blog] = [of('backend-solo'), of('blog')];
    const paired = Array.from({ length: Math.max(solo.length, blog.length) }, (_, i) => [solo[i], blog[i]]).flat().filter((s) => s !== undefined);
    return [...sorted.filter((s) => !paired.includes(s)), ...paired];
  }
}
