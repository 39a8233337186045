package dev.spanprofile.render;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.WaitKind;

/**
 * One kind of wait.
 *
 * @param name the category, e.g. {@code socket I/O} ({@link WaitKind#category()}), or
 * {@code other}
 * @param nanos the time waited
 * @param count how many waits
 * @param on the details waited on most (peers, files, monitors' classes), longest first;
 * at most {@link TimeBreakdown#TOP_DETAILS}
 * @param others the other details added up, or {@code null} when {@code on} names them
 * all
 */
public record WaitCategory(String name, long nanos, long count, List<Detail> on, Detail others) {

	static WaitCategory of(String name, Map<String, long[]> details) {
		List<Detail> all = new ArrayList<>();
		long nanos = 0;
		long count = 0;
		for (Map.Entry<String, long[]> entry : details.entrySet()) {
			nanos += entry.getValue()[0];
			count += entry.getValue()[1];
			if (!entry.getKey().isEmpty()) {
				all.add(new Detail(entry.getKey(), entry.getValue()[0], entry.getValue()[1]));
			}
		}
		all.sort(Comparator.comparingLong(Detail::nanos).reversed().thenComparing(Detail::detail));
		Detail others = null;
		if (all.size() > TimeBreakdown.TOP_DETAILS) {
			long otherNanos = 0;
			long otherCount = 0;
			for (Detail detail : all.subList(TimeBreakdown.TOP_DETAILS, all.size())) {
				otherNanos += detail.nanos();
				otherCount += detail.count();
			}
			others = new Detail((all.size() - TimeBreakdown.TOP_DETAILS) + " others", otherNanos, otherCount);
			all = all.subList(0, TimeBreakdown.TOP_DETAILS);
		}
		return new WaitCategory(name, nanos, count, List.copyOf(all), others);
	}

	/**
	 * What one category's waits were on.
	 *
	 * @param detail a peer {@code host:port}, a file, a monitor's class; for
	 * {@link WaitCategory#others()}, how many
	 * @param nanos the time waited on it
	 * @param count how many waits
	 */
	public record Detail(String detail, long nanos, long count) {
	}

}
