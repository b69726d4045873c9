// Setup file of the solo project (test/schedule.ts): one solo file at a time, beside at most one blog file.
import { runExclusively } from './helpers/exclusive';

runExclusively('solo');
