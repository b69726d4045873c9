import * as migration_20261122_164718_initial from './20261122_164718_initial';

export const migrations = [
  {
    up: migration_20261122_164718_initial.up,
    down: migration_20261122_164718_initial.down,
    name: '20261122_164718_initial'
  },
];
