package dev.spanprofile.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.WaitKind;

/**
 * What a wait's leaf frame is, as a small number: its {@link WaitKind} and what it waited
 * on (a peer, a file, a monitor's class), one slot per pair, so that a name's breakdown
 * adds a request's waits up in arrays rather than maps. A frame's slot is looked up once
 * and kept by frame id, so a request's fold parses no frame name it has seen before.
 * <p>
 * Bounded: at most {@link #MAX_NAMED} details are named across all names; the later ones
 * count in their kind's {@link #isOthers others} slot. Guarded by the lock of the
 * {@link NameProfiles} that owns it.
 */
final class WaitSlots {

	/**
	 * Details named across every name; enough for the peers, files and monitors of a
	 * service.
	 */
	static final int MAX_NAMED = 256;

	private static final WaitKind[] KINDS = WaitKind.values();

	/**
	 * Slot of a leaf that is no wait the engine names: what a breakdown calls "other".
	 */
	static final int OTHER = 2 * KINDS.length;

	private final FrameTable frames;

	/** Per frame id its slot plus one; zero where not yet looked up. */
	private int[] slotOfFrame = new int[1024];

	private final Map<String, Integer> named = new HashMap<>();

	private final List<WaitKind> namedKinds = new ArrayList<>();

	private final List<String> namedDetails = new ArrayList<>();

	WaitSlots(FrameTable frames) {
		this.frames = frames;
	}

	/** The slot of waits that end in frame {@code frame}. */
	int slotOf(int frame) {
		if (frame >= this.slotOfFrame.length) {
			this.slotOfFrame = Arrays.copyOf(this.slotOfFrame, Math.max(frame + 1, 2 * this.slotOfFrame.length));
		}
		int known = this.slotOfFrame[frame];
		if (known == 0) {
			known = lookUp(frame) + 1;
			this.slotOfFrame[frame] = known;
		}
		return known - 1;
	}

	private int lookUp(int frame) {
		String name = this.frames.name(frame);
		WaitKind kind = (this.frames.kind(frame) == FrameKind.WAIT) ? WaitKind.ofFrameName(name) : null;
		if (kind == null) {
			return OTHER;
		}
		String detail = WaitKind.detailOfFrameName(name);
		if (detail == null) {
			return 2 * kind.ordinal();
		}
		Integer slot = this.named.get(name);
		if (slot != null) {
			return slot;
		}
		if (this.namedDetails.size() >= MAX_NAMED) {
			return othersOf(kind);
		}
		slot = OTHER + 1 + this.namedDetails.size();
		this.named.put(name, slot);
		this.namedKinds.add(kind);
		this.namedDetails.add(detail);
		return slot;
	}

	/**
	 * The slot that adds up {@code kind}'s waits whose detail is not named on its own.
	 */
	static int othersOf(WaitKind kind) {
		return 2 * kind.ordinal() + 1;
	}

	/** The slot's kind, {@code null} for {@link #OTHER}. */
	WaitKind kind(int slot) {
		if (slot < OTHER) {
			return KINDS[slot / 2];
		}
		return (slot == OTHER) ? null : this.namedKinds.get(slot - OTHER - 1);
	}

	/**
	 * What the slot's waits were on; {@code null} when not named (no detail, or others).
	 */
	String detail(int slot) {
		return (slot > OTHER) ? this.namedDetails.get(slot - OTHER - 1) : null;
	}

	/** Whether the slot adds up details that are not named on their own. */
	static boolean isOthers(int slot) {
		return slot < OTHER && slot % 2 == 1;
	}

	/** The others slot of {@code slot}'s kind; {@link #OTHER} for itself. */
	int othersOfSlot(int slot) {
		WaitKind kind = kind(slot);
		return (kind != null) ? othersOf(kind) : OTHER;
	}

	long bytes() {
		return 4L * this.slotOfFrame.length + 120L * this.namedDetails.size();
	}

}
