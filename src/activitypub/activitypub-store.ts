// What the blog keeps as an actor of the fediverse (docs/activitypub.md "What is kept"): its key pair, made once,
// its followers, the posts delivered to them (so a restart sends nothing twice) and which actor sent each reply,
// like or boost that became a comment. src/adapters/files/activitypub-files.ts keeps them in data_dir.

/** A remote actor that follows the blog, with where its activities go. */
export interface Follower {
  /** The actor's id (a URL). */
  id: string;
  inbox: string;
  /** The inbox its server shares between its actors, when it has one: one POST serves them all. */
  sharedInbox: string | null;
}

/** The actor's RSA key pair as JSON Web Keys. */
export interface ActorKeys {
  privateKey: JsonWebKey;
  publicKey: JsonWebKey;
}

/** Per post version (`<slug>@<lang>`): the Article id delivered and the change (a hash of what it says) last sent. */
export type DeliveredRecord = Record<string, { id: string; change: string }>;

export interface ActivityPubStore {
  /** The key pair kept, or the one `create` makes when there is none yet (kept from then on). */
  keys(create: () => Promise<ActorKeys>): Promise<ActorKeys>;
  /** Adds a follower, or replaces the one with the same id. */
  addFollower(follower: Follower): Promise<void>;
  /** Forgets a follower; false when there was none. */
  removeFollower(id: string): Promise<boolean>;
  /** Every follower, in the order they followed. */
  followers(): Promise<Follower[]>;
  readDelivered(): Promise<DeliveredRecord>;
  writeDelivered(record: DeliveredRecord): Promise<void>;
  /** Remembers that the remote object `objectId` (a reply, like or boost) was sent by `actorId`. */
  addRemoteObject(objectId: string, actorId: string): Promise<void>;
  /** The remote objects `actorId` sent. */
  objectsOf(actorId: string): Promise<string[]>;
}
