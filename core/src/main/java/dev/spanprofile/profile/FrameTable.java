package dev.spanprofile.profile;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Interns frames: a stored stack is an array of small ints, and each distinct frame (name
 * and kind) exists once however many spans and samples contain it. Written by the
 * collector, read by renderers.
 * <p>
 * Ids stay valid for the life of the table (stored stacks and the engines' caches hold
 * them), so it never shrinks; instead it is bounded. Once its names would take more than
 * {@code maxBytes}, every new frame gets the id of one placeholder frame that says so,
 * and the flame graphs show where the detail was lost.
 */
public final class FrameTable {

	/**
	 * Rough heap cost of one frame besides its name's characters: the String, the map
	 * entry, the array slots.
	 */
	static final int BYTES_PER_FRAME = 112;

	/** Shown in place of every frame interned after the table is full. */
	public static final String OVERFLOW_NAME = "[frame names beyond spanprofile.max-memory's share: not recorded]";

	/**
	 * Bound of a table made without one (renderers, tests): generous, but not unlimited.
	 */
	private static final long DEFAULT_MAX_BYTES = 16L * 1024 * 1024;

	private final Map<FrameKey, Integer> ids = new HashMap<>();

	private final long maxBytes;

	private volatile String[] names = new String[256];

	private volatile FrameKind[] kinds = new FrameKind[256];

	private int size;

	private volatile long bytes;

	/** Id of the placeholder frame, -1 until the table first fills. */
	private int overflowId = -1;

	public FrameTable() {
		this(DEFAULT_MAX_BYTES);
	}

	/**
	 * @param maxBytes approximate heap the interned frames may take
	 */
	public FrameTable(long maxBytes) {
		this.maxBytes = maxBytes;
	}

	/**
	 * The id for the frame {@code name} of {@code kind}, assigning a new one on first
	 * sight. The same name can be two frames of different kinds (a JIT-compiled method
	 * and the native stub of the same name, say).
	 */
	public synchronized int intern(String name, FrameKind kind) {
		FrameKey key = new FrameKey(name, kind);
		Integer id = this.ids.get(key);
		if (id != null) {
			return id;
		}
		long cost = cost(name);
		if (this.bytes + cost > this.maxBytes) {
			if (this.overflowId < 0) {
				// Always room for the placeholder itself: the bound is exceeded by one
				// small frame at most.
				this.overflowId = append(OVERFLOW_NAME, FrameKind.NATIVE, cost(OVERFLOW_NAME));
			}
			return this.overflowId;
		}
		int newId = append(name, kind, cost);
		this.ids.put(key, newId);
		return newId;
	}

	private int append(String name, FrameKind kind, long cost) {
		int newId = this.size;
		if (newId == this.names.length) {
			this.kinds = Arrays.copyOf(this.kinds, newId * 2);
			this.names = Arrays.copyOf(this.names, newId * 2);
		}
		this.kinds[newId] = kind;
		this.names[newId] = name;
		this.size = newId + 1;
		this.bytes += cost;
		return newId;
	}

	private static long cost(String name) {
		// Compact strings: one byte per Latin-1 character, which frame names nearly
		// always are.
		return BYTES_PER_FRAME + name.length();
	}

	public String name(int id) {
		return this.names[id];
	}

	public FrameKind kind(int id) {
		return this.kinds[id];
	}

	public synchronized int size() {
		return this.size;
	}

	/**
	 * Approximate heap held by the interned frames; at most the bound plus one
	 * placeholder frame.
	 */
	public long approximateBytes() {
		return this.bytes;
	}

	private record FrameKey(String name, FrameKind kind) {
	}

}
