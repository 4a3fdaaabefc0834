// @serenityjs/core requires this package at load time but only calls Leveldb.open() for a
// LevelDB world provider; Bailiff runs SerenityJS with in-memory worlds, so it never does.
// biome-ignore lint/complexity/noStaticOnlyClass: the shape @serenityjs/core calls (Leveldb.open).
class Leveldb {
  static open(path) {
    throw new Error(
      `LevelDB worlds are not available in this Bailiff build (tried to open ${path}); keep worldFolder: null for SerenityJS`,
    );
  }
}

module.exports = { Leveldb };
