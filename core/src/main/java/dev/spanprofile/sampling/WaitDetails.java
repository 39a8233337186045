package dev.spanprofile.sampling;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.profile.WaitKind;

/**
 * Names the leaf frame of a wait, keeping the number of distinct names bounded. A wait's
 * detail (a file's path, a peer's {@code host:port}, a monitor's class) becomes part of a
 * frame name, and frames are interned for the life of the process: details that never
 * repeat (per-upload temp files, per-id media files, per-tenant hosts, ephemeral ports)
 * would otherwise fill the frame table's share of memory, after which every new frame of
 * every graph is its overflow placeholder.
 * <p>
 * So each kind keeps its first {@link #DEFAULT_LIMIT} distinct details as they are; later
 * new ones are folded to a coarser name (a file to its directory, a host to its domain
 * without an ephemeral port, a class to its package), of which each kind keeps as many
 * again; what still does not fit is named {@link #OTHERS}. At most {@code 2 × limit + 1}
 * frames per kind, whatever the traffic. Details named by the application
 * ({@link #leafName(WaitKind, String, boolean)} with {@code named}) are always kept:
 * there are only as many as it configured.
 * <p>
 * Used by the stream thread of one engine across its restarts, hence synchronized.
 */
final class WaitDetails {

	/** Distinct details kept as they are per kind, and coarser names as many again. */
	static final int DEFAULT_LIMIT = 256;

	/**
	 * The detail of a wait whose detail and its coarser name were both past the limit.
	 */
	static final String OTHERS = "(others)";

	/** Where the operating systems' ephemeral port ranges start (Linux: 32768). */
	private static final int EPHEMERAL_PORTS = 32768;

	private final int limit;

	private final Map<WaitKind, Set<String>> exact = new EnumMap<>(WaitKind.class);

	private final Map<WaitKind, Set<String>> coarse = new EnumMap<>(WaitKind.class);

	WaitDetails() {
		this(DEFAULT_LIMIT);
	}

	WaitDetails(int limit) {
		this.limit = limit;
	}

	/** The leaf frame's name of a wait of {@code kind} on {@code detail}. */
	String leafName(WaitKind kind, String detail) {
		return leafName(kind, detail, false);
	}

	/**
	 * @param named whether the application named this detail (a database's label): kept
	 * whatever the limit
	 */
	synchronized String leafName(WaitKind kind, String detail, boolean named) {
		if (detail == null || detail.isEmpty()) {
			return kind.frameName(null);
		}
		Set<String> kept = this.exact.computeIfAbsent(kind, (key) -> new HashSet<>());
		if (named || kept.contains(detail) || admit(kept, detail)) {
			return kind.frameName(detail);
		}
		// A detail with nothing to fold (a database's host:port first seen after a busy
		// server's clients took the first slots) takes a coarse slot as it is.
		String coarser = coarser(kind, detail);
		coarser = (coarser != null) ? coarser : detail;
		Set<String> folded = this.coarse.computeIfAbsent(kind, (key) -> new HashSet<>());
		if (folded.contains(coarser) || admit(folded, coarser)) {
			return kind.frameName(coarser);
		}
		return kind.frameName(OTHERS);
	}

	private boolean admit(Set<String> kept, String detail) {
		return kept.size() < this.limit && kept.add(detail);
	}

	/**
	 * A name shared by many details: {@code /data/media/*} for
	 * {@code /data/media/4711.jpg}, {@code *.s3.example.com:443} for
	 * {@code bucket-7.s3.example.com:443}, {@code 10.0.0.5} for {@code 10.0.0.5:51234},
	 * {@code com.example.*} for a class; {@code null} when there is none.
	 */
	static String coarser(WaitKind kind, String detail) {
		return switch (kind) {
			case FILE_READ, FILE_WRITE -> directory(detail);
			case SOCKET_READ, SOCKET_WRITE -> host(detail);
			case MONITOR_ENTER, MONITOR_WAIT, PARK -> packageOf(detail);
			default -> null;
		};
	}

	private static String directory(String path) {
		int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
		return (slash > 0) ? path.substring(0, slash + 1) + "*" : null;
	}

	private static String host(String peer) {
		int colon = peer.lastIndexOf(':');
		String host = (colon > 0) ? peer.substring(0, colon) : peer;
		String port = (colon > 0) ? peer.substring(colon) : "";
		if (port.length() > 1 && isNumber(port.substring(1))
				&& Integer.parseInt(port.substring(1)) >= EPHEMERAL_PORTS) {
			// A client's port: one per connection, it says nothing about the peer.
			port = "";
		}
		int dot = host.indexOf('.');
		boolean name = dot > 0 && !Character.isDigit(host.charAt(host.length() - 1)) && host.indexOf(':') < 0;
		if (name && host.indexOf('.', dot + 1) > 0) {
			// bucket-7.s3.example.com: the service, not the tenant.
			host = "*" + host.substring(dot);
		}
		String coarser = host + port;
		return coarser.equals(peer) ? null : coarser;
	}

	private static boolean isNumber(String text) {
		if (text.isEmpty() || text.length() > 5) {
			return false;
		}
		for (int i = 0; i < text.length(); i++) {
			if (!Character.isDigit(text.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	private static String packageOf(String className) {
		int dot = className.lastIndexOf('.');
		return (dot > 0) ? className.substring(0, dot) + ".*" : null;
	}

}
