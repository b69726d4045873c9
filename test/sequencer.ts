import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { takesAnyLane } from './schedule';

const anyLane = (s: TestSpecification) => takesAnyLane(s.moduleId);

/**
 * Vitest's order (longest first, failed first), except in the group of two workers that the solo and
 * blog files share (test/schedule.ts). There a blog file comes first, then the solo files that take
 * either lock, then solo and blog files alternate, so the two workers mostly hold one of each. Every
 * blog file waits for the suite's blog build, which may still be running when the group starts (it
 * runs niced under the backend files): the first blog file waits for it in one worker while the
 * other runs solo files, which need no build, and any-lane ones may run beside each other once the
 * build is ready.
 */
export class PairingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const of = (name: string) => sorted.filter((s) => s.project.name === name);
    const [solo, blog] = [of('backend-solo'), of('blog')];
    const [first, ...otherBlog] = blog;
    const [soloAnyLane, otherSolo] = [solo.filter(anyLane), solo.filter((s) => !anyLane(s))];
    const alternating = Array.from({ length: Math.max(otherSolo.length, otherBlog.length) }, (_, i) => [otherSolo[i], otherBlog[i]]).flat();
    const group = [first, ...soloAnyLane, ...alternating].filter((s) => s !== undefined);
    return [...sorted.filter((s) => !group.includes(s)), ...group];
  }
}
