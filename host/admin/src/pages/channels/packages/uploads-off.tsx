/** Why the tarball fields are disabled: this host takes packages from its registry only. */
export function UploadsOff() {
  return (
    <p className="notice" data-uploads="off">
      Uploads are off on this host: BOT_CHANNEL_INSTALL=any allows them, besides packages from the registry.
    </p>
  );
}
