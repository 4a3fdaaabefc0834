/** The part of @serenityjs/leveldb that @serenityjs/core's types name. */
// biome-ignore lint/complexity/noStaticOnlyClass: mirrors the real package.
export declare class Leveldb {
  static open(path: string): Leveldb;
}
