import * as migration_20261122_164718_initial from './20261122_164718_initial';
import * as migration_20261123_153227_partner_media_and_warnings from './20261123_153227_partner_media_and_warnings';
import * as migration_20261126_172020_media_files from './20261126_172020_media_files';
import * as migration_20261129_181605_texts_parent_index from './20261129_181605_texts_parent_index';

export const migrations = [
  {
    up: migration_20261122_164718_initial.up,
    down: migration_20261122_164718_initial.down,
    name: '20261122_164718_initial',
  },
  {
    up: migration_20261123_153227_partner_media_and_warnings.up,
    down: migration_20261123_153227_partner_media_and_warnings.down,
    name: '20261123_153227_partner_media_and_warnings',
  },
  {
    up: migration_20261126_172020_media_files.up,
    down: migration_20261126_172020_media_files.down,
    name: '20261126_172020_media_files',
  },
  {
    up: migration_20261129_181605_texts_parent_index.up,
    down: migration_20261129_181605_texts_parent_index.down,
    name: '20261129_181605_texts_parent_index'
  },
];
