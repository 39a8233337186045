package dev.spanprofile.profile;

/**
 * What a thread waited on, as the leaf frame of a {@link SampleKind#WAIT} sample names
 * it: {@code [socket read
 * 127.0.0.1:5432]}, {@code [park]}, {@code [GC pause]}. The frame name is the one place
 * the kind and its detail (a peer, a file, a lock's class) live, so that a flame graph, a
 * collapsed export and the breakdown of a request's time all say the same thing.
 */
public enum WaitKind {

	/** Reading from a socket: a database's answer, a downstream HTTP call. */
	SOCKET_READ("socket read", "socket I/O"),

	/** Writing to a socket whose peer does not take the bytes fast enough. */
	SOCKET_WRITE("socket write", "socket I/O"),

	/** Reading a file. */
	FILE_READ("file read", "file I/O"),

	/** Writing a file. */
	FILE_WRITE("file write", "file I/O"),

	/** Waiting to enter a {@code synchronized} block another thread holds. */
	MONITOR_ENTER("monitor enter", "lock"),

	/** {@code Object.wait()}: waiting to be notified. */
	MONITOR_WAIT("monitor wait", "lock"),

	/**
	 * A parked thread: {@code java.util.concurrent} locks, a pool's queue (a connection
	 * pool with no free connection), a future awaited.
	 */
	PARK("park", "park"),

	/** {@code Thread.sleep}. */
	SLEEP("sleep", "sleep"),

	/**
	 * A stop-the-world pause of the garbage collector (or another safepoint) while the
	 * thread ran in the span.
	 */
	GC_PAUSE("GC pause", "GC pause");

	private final String label;

	private final String category;

	WaitKind(String label, String category) {
		this.label = label;
		this.category = category;
	}

	/** How the leaf frame starts, e.g. {@code socket read}. */
	public String label() {
		return this.label;
	}

	/**
	 * The line of a request's time breakdown this wait counts in: {@code socket I/O},
	 * {@code file I/O}, {@code lock}, {@code park}, {@code sleep}, {@code GC pause}.
	 */
	public String category() {
		return this.category;
	}

	/**
	 * The leaf frame's name.
	 * @param detail what the wait was on (a peer {@code host:port}, a file, a monitor's
	 * class), or {@code null}
	 */
	public String frameName(String detail) {
		return (detail == null || detail.isEmpty()) ? "[" + this.label + "]" : "[" + this.label + " " + detail + "]";
	}

	/**
	 * The kind a leaf frame's name was made by {@link #frameName}, or {@code null} for
	 * any other name.
	 */
	public static WaitKind ofFrameName(String name) {
		if (name == null || name.length() < 3 || name.charAt(0) != '[' || name.charAt(name.length() - 1) != ']') {
			return null;
		}
		for (WaitKind kind : values()) {
			String label = kind.label;
			if (name.startsWith(label, 1)
					&& (name.length() == label.length() + 2 || name.charAt(label.length() + 1) == ' ')) {
				return kind;
			}
		}
		return null;
	}

	/**
	 * What a leaf frame's name says the wait was on ({@code 127.0.0.1:5432}), or
	 * {@code null}.
	 */
	public static String detailOfFrameName(String name) {
		WaitKind kind = ofFrameName(name);
		if (kind == null || name.length() == kind.label.length() + 2) {
			return null;
		}
		return name.substring(kind.label.length() + 2, name.length() - 1);
	}

}
