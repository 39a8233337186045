package dev.spanprofile.startup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.spanprofile.store.SpanRecord;

/**
 * The cold first requests: the first request of each name (each endpoint) that began
 * after the start was over, held with its whole profile whatever the store drops since
 * (class loading, lazy initialisation, template compilation and JIT land in them). At
 * most {@link #MAX_NAMES} names, the first ones seen; a request of a name already kept,
 * or of one beyond them, is left to the store.
 */
public final class FirstRequests implements Consumer<SpanRecord> {

	/** Names whose first request is kept; each holds one request's profile. */
	static final int MAX_NAMES = 50;

	private final StartupRecording recording;

	private final Map<String, SpanRecord> byName = new LinkedHashMap<>();

	FirstRequests(StartupRecording recording) {
		this.recording = recording;
	}

	/**
	 * A local root whose profile is complete: kept if it is its name's first since the
	 * start.
	 */
	@Override
	public void accept(SpanRecord root) {
		StartupStep start = this.recording.root();
		if (!this.recording.isFinished() || root.startEpochNanos() < start.endEpochNanos()) {
			return;
		}
		String name = root.name();
		synchronized (this.byName) {
			if (this.byName.size() < MAX_NAMES && !this.byName.containsKey(name)) {
				this.byName.put(name, root);
			}
		}
	}

	/** The kept requests, in the order they completed. */
	public List<SpanRecord> all() {
		synchronized (this.byName) {
			return new ArrayList<>(this.byName.values());
		}
	}

	/** Whether {@code root} is one of the kept requests. */
	public boolean holds(SpanRecord root) {
		return find(root.spanId()) == root;
	}

	/** The kept request with this span id, or {@code null}. */
	public SpanRecord find(String spanId) {
		synchronized (this.byName) {
			for (SpanRecord root : this.byName.values()) {
				if (root.spanId().equals(spanId)) {
					return root;
				}
			}
		}
		return null;
	}

}
