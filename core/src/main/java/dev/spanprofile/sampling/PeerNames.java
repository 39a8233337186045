package dev.spanprofile.sampling;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names of socket peers as the application knows them ({@code PostgreSQL petclinic at
 * db:5432}), by {@code host:port}: a socket wait on such a peer is named so rather than
 * by its address. Filled by whoever reads the application's configuration (the Spring
 * Boot starter reads its data sources' JDBC URLs), possibly after profiling started; read
 * by the waits' stream thread, once per recorded socket wait. Bounded: names beyond
 * {@link #MAX_PEERS} are ignored.
 */
public final class PeerNames {

	/** More peers than an application configures; a bound, not a target. */
	public static final int MAX_PEERS = 1000;

	private final Map<String, String> byPeer = new ConcurrentHashMap<>();

	/**
	 * Name the peer {@code host:port}; the host is matched as the application wrote it
	 * and as an address, case-insensitively. The first name given to a peer stays.
	 * @return whether the name was taken
	 */
	public boolean name(String host, int port, String name) {
		if (host == null || host.isEmpty() || name == null || name.isBlank() || this.byPeer.size() >= MAX_PEERS) {
			return false;
		}
		return this.byPeer.putIfAbsent(key(host, port), name) == null;
	}

	/**
	 * The name of the peer a socket event reports, by its host name, else its address;
	 * {@code null} when the application named neither.
	 */
	public String of(String host, String address, int port) {
		if (this.byPeer.isEmpty()) {
			return null;
		}
		String named = (host != null && !host.isEmpty()) ? this.byPeer.get(key(host, port)) : null;
		if (named == null && address != null && !address.isEmpty()) {
			named = this.byPeer.get(key(address, port));
		}
		return named;
	}

	/** The named peers, {@code host:port} to name. */
	public Map<String, String> all() {
		return Map.copyOf(this.byPeer);
	}

	private static String key(String host, int port) {
		return host.toLowerCase(Locale.ROOT) + ":" + port;
	}

}
