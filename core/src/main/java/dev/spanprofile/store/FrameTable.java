package dev.spanprofile.store;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Interns frame names: a stored stack is an array of small ints, and each distinct {@code package.Class.method}
 * string exists once however many spans and samples contain it. Written by the collector, read by renderers.
 */
public final class FrameTable {

	private final Map<String, Integer> ids = new HashMap<>();

	private volatile String[] names = new String[256];

	private volatile FrameKind[] kinds = new FrameKind[256];

	private int size;

	/** The id for {@code name}, assigning a new one on first sight. */
	public synchronized int intern(String name, FrameKind kind) {
		Integer id = this.ids.get(name);
		if (id != null) {
			return id;
		}
		int newId = this.size;
		if (newId == this.names.length) {
			this.kinds = Arrays.copyOf(this.kinds, newId * 2);
			this.names = Arrays.copyOf(this.names, newId * 2);
		}
		this.kinds[newId] = kind;
		this.names[newId] = name;
		this.size = newId + 1;
		this.ids.put(name, newId);
		return newId;
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

}
