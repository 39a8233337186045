package dev.spanprofile.view;

import java.util.Locale;
import java.util.regex.Pattern;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SamplerSettings;

/**
 * Whose flame graph to show: one span's (a 16-hex span id) or a whole trace's (32 hex),
 * and of which samples.
 *
 * @param id the span or trace id, lower case
 * @param trace whether {@code id} is a trace id
 * @param kind what the samples measure (cpu, wall, alloc, lock or wait)
 * @param kindGiven whether the query named the kind; without it the view may show the
 * graph that explains the duration (waits, for a request mostly off-CPU) rather than
 * {@code kind}
 */
public record ProfileQuery(String id, boolean trace, SampleKind kind, boolean kindGiven) {

	public ProfileQuery(String id, boolean trace, SampleKind kind) {
		this(id, trace, kind, true);
	}

	private static final Pattern SPAN_ID = Pattern.compile("[0-9a-fA-F]{16}");

	private static final Pattern TRACE_ID = Pattern.compile("[0-9a-fA-F]{32}");

	/**
	 * @param id a span id or trace id
	 * @param event {@code cpu}, {@code wall}, {@code alloc}, {@code lock} or
	 * {@code wait}, or {@code null} for the primary kind (cpu when sampled)
	 * @param sampler what is sampled, which decides which events can be asked for
	 * @throws ViewException for an event that is not sampled or an id that is neither
	 * kind of id
	 */
	public static ProfileQuery parse(String id, String event, SamplerSettings sampler) {
		SampleKind kind = sampleKind(event, sampler);
		boolean trace = TRACE_ID.matcher(id).matches();
		if (!trace && !SPAN_ID.matcher(id).matches()) {
			throw ViewException.badRequest("'" + Echo.of(id) + "' is not a span id: expected 16 hexadecimal "
					+ "characters (or 32 for a trace id)");
		}
		return new ProfileQuery(id.toLowerCase(Locale.ROOT), trace, kind, event != null && !event.isBlank());
	}

	static SampleKind sampleKind(String event, SamplerSettings sampler) {
		if (event == null || event.isBlank()) {
			return sampler.primaryKind();
		}
		for (SampleKind kind : sampler.kinds()) {
			if (kind.id().equalsIgnoreCase(event.trim())) {
				return kind;
			}
		}
		String requested = event.trim().toLowerCase(Locale.ROOT);
		if (requested.equals(SampleKind.WAIT.id())) {
			throw ViewException.badRequest("No wait samples are taken: recording waits is turned off here");
		}
		for (SampleKind kind : SampleKind.values()) {
			if (kind.id().equals(requested)) {
				throw ViewException.badRequest(
						"No " + requested + " samples are taken: spanprofile.event is " + sampler.eventsDescription());
			}
		}
		throw ViewException.badRequest("event must be cpu, wall, alloc, lock or wait, was '" + Echo.of(event) + "'");
	}

}
