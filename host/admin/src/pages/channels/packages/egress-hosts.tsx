/** The hosts a package declares it sends to (`bot.egress`). */
export function EgressHosts({ hosts }: { hosts: string[] }) {
  if (hosts.length === 0) return <span className="empty">none declared</span>;
  return (
    <>
      {hosts.map((host) => (
        <code key={host} className="tag">
          {host}
        </code>
      ))}
    </>
  );
}
