package dev.spanprofile.test;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;

/**
 * The complete profile of the requests a test made: one request's, or several merged (the
 * repetitions of a request). Read with {@link SpanProfileAssertions#assertThatProfile}.
 * The samples are copied when first asked for, so later requests do not change what an
 * assertion measured; the waits, which arrive a second or two after the other samples,
 * are awaited then.
 */
public final class RequestProfile {

	private final List<SpanRecord> requests;

	private final FrameTable frames;

	private final SamplerSettings sampler;

	private final EngineStatus engine;

	private final ProfileFiles files;

	private final Runnable awaitWaits;

	private final Map<SampleKind, StackTree> samples = new EnumMap<>(SampleKind.class);

	/**
	 * @param awaitWaits returns once the waits up to the requests' end are joined as
	 * well; run before the waits are first read
	 */
	RequestProfile(List<SpanRecord> requests, FrameTable frames, SamplerSettings sampler, EngineStatus engine,
			ProfileFiles files, Runnable awaitWaits) {
		this.requests = List.copyOf(requests);
		this.frames = frames;
		this.sampler = sampler;
		this.engine = engine;
		this.files = files;
		this.awaitWaits = awaitWaits;
	}

	/** The requests (local root spans) this profile merges, newest first. */
	public List<SpanRecord> requests() {
		return this.requests;
	}

	public int requestCount() {
		return this.requests.size();
	}

	/**
	 * Whether samples of {@code kind} are taken here (spanprofile.event, and waits when
	 * they are recorded).
	 */
	public boolean samples(SampleKind kind) {
		return this.sampler.kinds().contains(kind);
	}

	/**
	 * The merged samples of {@code kind} of every request and its local descendants, each
	 * stack cut at its {@link RequestEntry request's entry}: the frames of a test that
	 * ran the request on its own thread are not the request's.
	 */
	public synchronized StackTree samplesOf(SampleKind kind) {
		if (kind == SampleKind.WAIT && !this.samples.containsKey(kind)) {
			this.awaitWaits.run();
		}
		return this.samples.computeIfAbsent(kind, (key) -> {
			StackTree tree = new StackTree();
			for (SpanRecord request : this.requests) {
				tree.addAll(InclusiveSamples.of(request, key));
			}
			return RequestEntry.cut(tree, this.frames);
		});
	}

	/**
	 * Weight of the samples of {@code kind} whose stack has a frame that {@code frame}
	 * accepts (by frame id).
	 */
	long weightThrough(SampleKind kind, IntPredicate frame) {
		long[] weight = new long[1];
		Map<Integer, Boolean> accepted = new LinkedHashMap<>();
		samplesOf(kind).visit((path, depth, total, self) -> {
			if (self == 0) {
				return;
			}
			for (int i = 0; i < depth; i++) {
				if (accepted.computeIfAbsent(path[i], frame::test)) {
					weight[0] += self;
					return;
				}
			}
		});
		return weight[0];
	}

	/** "GET /checkout" for one request, "3 requests: GET /checkout ×3" for several. */
	public String description() {
		if (this.requests.size() == 1) {
			return this.requests.get(0).name();
		}
		Map<String, Integer> names = new LinkedHashMap<>();
		for (SpanRecord request : this.requests) {
			names.merge(request.name(), 1, Integer::sum);
		}
		StringBuilder out = new StringBuilder().append(this.requests.size()).append(" requests: ");
		names.forEach((name, count) -> out.append((out.charAt(out.length() - 2) == ':') ? "" : ", ")
			.append(name)
			.append((count > 1) ? " ×" + count : ""));
		return out.toString();
	}

	FrameTable frames() {
		return this.frames;
	}

	SamplerSettings sampler() {
		return this.sampler;
	}

	EngineStatus engine() {
		return this.engine;
	}

	ProfileFiles files() {
		return this.files;
	}

}
