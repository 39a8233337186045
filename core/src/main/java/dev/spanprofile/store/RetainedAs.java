package dev.spanprofile.store;

import java.util.Locale;

/**
 * Why a stored span is still there: most spans only because they are recent; a few
 * because they are worth reading later, whatever the traffic since.
 */
public enum RetainedAs {

	/** One of the latest requests; the first to go when room is needed. */
	RECENT,

	/** Among the slowest requests of its name within the retention window. */
	SLOWEST,

	/**
	 * The latest failed request of its name in its minute, within the retention window.
	 */
	ERROR,

	/**
	 * Asked for by its caller (an on-demand header, a capture of a name's next requests),
	 * within the retention window.
	 */
	FORCED;

	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
