package dev.spanprofile.test;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.SelfTime;

/**
 * What a failed or refused profile assertion tells the person reading it, after its
 * one-line verdict: the functions where the samples ended (the first place to look), and
 * the flame graph written for this test, to open in a browser.
 */
final class FailureReport {

	private static final int TOP_FRAMES = 8;

	private FailureReport() {
	}

	static String evidence(RequestProfile profile, SampleKind kind) {
		StackTree samples = profile.samplesOf(kind);
		StringBuilder out = new StringBuilder();
		out.append("\nProfile of ")
			.append(profile.description())
			.append(", ")
			.append(profile.engine().event())
			.append(" every ")
			.append(profile.sampler().interval().toMillis())
			.append(" ms (")
			.append(profile.engine().engine())
			.append(").");
		List<SelfTime.Entry> top = SelfTime.top(samples, profile.frames(), TOP_FRAMES);
		if (!top.isEmpty()) {
			out.append("\nTop self-time frames (").append(kind.id()).append("):");
			long total = Math.max(1, samples.totalSamples());
			for (SelfTime.Entry entry : top) {
				out.append(String.format(Locale.ROOT, "%n  %12s  %5.1f %%  %s", amount(kind, entry.samples()),
						100.0 * entry.samples() / total, entry.frame()));
			}
		}
		Path graph = profile.files().write(profile, kind);
		out.append("\nFlame graph: ").append(graph);
		return out.toString();
	}

	/** A weight of {@code kind} for people: samples, bytes, or milliseconds. */
	static String amount(SampleKind kind, long weight) {
		return switch (kind) {
			case ALLOC -> bytes(weight);
			case LOCK, WAIT -> String.format(Locale.ROOT, "%.1f ms", weight / 1e6);
			default -> weight + " samples";
		};
	}

	static String bytes(double bytes) {
		if (bytes >= 1024 * 1024) {
			return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024 * 1024));
		}
		if (bytes >= 1024) {
			return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
		}
		return String.format(Locale.ROOT, "%.0f B", bytes);
	}

}
