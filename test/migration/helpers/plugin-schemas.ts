/**
 * The tables of the plugins the importers read, as those plugins create them on MySQL/MariaDB
 * (sources cited in src/migration/sources/database/*.ts), with realistic rows.
 */

const LITEBANS_PUNISHMENT_COLUMNS = `
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  uuid VARCHAR(36), ip VARCHAR(45), reason VARCHAR(2048),
  banned_by_uuid VARCHAR(36), banned_by_name VARCHAR(128),
  removed_by_uuid VARCHAR(36), removed_by_name VARCHAR(128), removed_by_reason VARCHAR(2048),
  removed_by_date TIMESTAMP NULL DEFAULT NULL,
  time BIGINT NOT NULL, until BIGINT NOT NULL, template TINYINT UNSIGNED NOT NULL DEFAULT 255,
  server_scope VARCHAR(32), server_origin VARCHAR(32),
  silent BIT(1) NOT NULL DEFAULT 0, ipban BIT(1) NOT NULL DEFAULT 0, ipban_wildcard BIT(1) NOT NULL DEFAULT 0,
  active BIT(1) NOT NULL DEFAULT 1,
  KEY idx_uuid (uuid), KEY idx_ip (ip), KEY idx_time (time), KEY idx_until (until)`;

export const LITEBANS_SCHEMA = [
  `CREATE TABLE litebans_bans (${LITEBANS_PUNISHMENT_COLUMNS}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  `CREATE TABLE litebans_mutes (${LITEBANS_PUNISHMENT_COLUMNS}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  `CREATE TABLE litebans_warnings (${LITEBANS_PUNISHMENT_COLUMNS}, warned BIT(1) NOT NULL DEFAULT 0) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  `CREATE TABLE litebans_kicks (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, uuid VARCHAR(36), ip VARCHAR(45), reason VARCHAR(2048),
    banned_by_uuid VARCHAR(36), banned_by_name VARCHAR(128), time BIGINT NOT NULL, until BIGINT NOT NULL,
    template TINYINT UNSIGNED NOT NULL DEFAULT 255, server_scope VARCHAR(32), server_origin VARCHAR(32),
    silent BIT(1) NOT NULL DEFAULT 0, ipban BIT(1) NOT NULL DEFAULT 0, ipban_wildcard BIT(1) NOT NULL DEFAULT 0,
    active BIT(1) NOT NULL DEFAULT 1, KEY idx_uuid (uuid)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  `CREATE TABLE litebans_history (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, date TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    name VARCHAR(16), uuid VARCHAR(36), ip VARCHAR(45), KEY idx_uuid (uuid), KEY idx_name (name))
    ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
];

export const ADVANCEDBAN_SCHEMA = ['Punishments', 'PunishmentHistory'].map(
  (table) => `CREATE TABLE \`${table}\` (
    \`id\` int NOT NULL AUTO_INCREMENT, \`name\` VARCHAR(16) NULL DEFAULT NULL, \`uuid\` VARCHAR(35) NULL DEFAULT NULL,
    \`reason\` VARCHAR(255) NULL DEFAULT NULL, \`operator\` VARCHAR(16) NULL DEFAULT NULL,
    \`punishmentType\` VARCHAR(16) NULL DEFAULT NULL, \`start\` LONG DEFAULT NULL, \`end\` LONG DEFAULT NULL,
    \`calculation\` VARCHAR(50) NULL DEFAULT NULL, PRIMARY KEY (\`id\`))`,
);

export const LIBERTYBANS_SCHEMA = [
  `CREATE TABLE libertybans_names (uuid BINARY(16) NOT NULL, name VARCHAR(16) NOT NULL, updated BIGINT NOT NULL,
    UNIQUE (uuid, name))`,
  `CREATE TABLE libertybans_punishments (id BIGINT NOT NULL UNIQUE, type SMALLINT NOT NULL, operator BINARY(16) NOT NULL,
    reason VARCHAR(256) NOT NULL, scope VARCHAR(32) NOT NULL, start BIGINT NOT NULL, end BIGINT NOT NULL,
    track INT NULL, scope_id INT NULL)`,
  `CREATE TABLE libertybans_victims (id INT NOT NULL UNIQUE, type SMALLINT NOT NULL, uuid BINARY(16) NOT NULL,
    address VARBINARY(16) NOT NULL, UNIQUE (type, uuid, address))`,
  ...['bans', 'mutes'].map(
    (table) => `CREATE TABLE libertybans_${table} (id BIGINT NOT NULL UNIQUE, victim INT NOT NULL UNIQUE)`,
  ),
  ...['warns', 'history'].map(
    (table) => `CREATE TABLE libertybans_${table} (id BIGINT NOT NULL UNIQUE, victim INT NOT NULL)`,
  ),
  `CREATE TABLE libertybans_undone (id BIGINT NOT NULL UNIQUE, operator BINARY(16) NOT NULL, reason VARCHAR(256) NOT NULL,
    time BIGINT NOT NULL)`,
];

const BM_PUNISHMENT = (target: string) =>
  `id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, ${target}, reason VARCHAR(255) NOT NULL, actor_id BINARY(16) NOT NULL,
   created BIGINT UNSIGNED NOT NULL, updated BIGINT UNSIGNED NOT NULL, expires BIGINT UNSIGNED NOT NULL, silent TINYINT(1)`;
const BM_RECORD = (target: string) =>
  `id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, ${target}, reason VARCHAR(255) NOT NULL, expired BIGINT NOT NULL,
   actor_id BINARY(16) NOT NULL, pastActor_id BINARY(16) NOT NULL, pastCreated INT(10) NOT NULL,
   created INT(10) NOT NULL, createdReason VARCHAR(255) NOT NULL, silent TINYINT(1)`;

export const BANMANAGER_SCHEMA = [
  `CREATE TABLE bm_players (id BINARY(16) NOT NULL PRIMARY KEY, name VARCHAR(16) NOT NULL, ip VARBINARY(16) NOT NULL,
    lastSeen BIGINT UNSIGNED NOT NULL)`,
  `CREATE TABLE bm_player_bans (${BM_PUNISHMENT('player_id BINARY(16) NOT NULL UNIQUE')})`,
  `CREATE TABLE bm_player_ban_records (${BM_RECORD('player_id BINARY(16) NOT NULL')})`,
  `CREATE TABLE bm_player_mutes (${BM_PUNISHMENT('player_id BINARY(16) NOT NULL UNIQUE')}, soft TINYINT(1))`,
  `CREATE TABLE bm_player_mute_records (${BM_RECORD('player_id BINARY(16) NOT NULL')}, soft TINYINT(1))`,
  `CREATE TABLE bm_ip_bans (${BM_PUNISHMENT('ip VARBINARY(16) NOT NULL')})`,
  `CREATE TABLE bm_ip_ban_records (${BM_RECORD('ip VARBINARY(16) NOT NULL')})`,
  `CREATE TABLE bm_player_warnings (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, player_id BINARY(16) NOT NULL,
    reason VARCHAR(255) NOT NULL, actor_id BINARY(16) NOT NULL, created BIGINT UNSIGNED NOT NULL,
    expires BIGINT UNSIGNED NOT NULL DEFAULT 0, \`read\` TINYINT(1), points DECIMAL(60,2) NOT NULL DEFAULT 1)`,
  `CREATE TABLE bm_player_kicks (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, player_id BINARY(16) NOT NULL,
    reason VARCHAR(255) NOT NULL, actor_id BINARY(16) NOT NULL, created BIGINT UNSIGNED NOT NULL)`,
];
