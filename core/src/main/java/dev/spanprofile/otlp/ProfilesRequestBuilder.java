package dev.spanprofile.otlp;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

import com.google.protobuf.ByteString;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Function;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Mapping;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.opentelemetry.proto.profiles.v1development.Stack;
import io.opentelemetry.proto.profiles.v1development.ValueType;
import io.opentelemetry.sdk.resources.Resource;

/**
 * One OTLP {@code ExportProfilesServiceRequest} (opentelemetry-proto 1.11.0,
 * {@code profiles/v1development}) from span-linked samples: a profile per sample kind, a
 * sample per (stack, span) pair whose {@code link_index} names the span, and one
 * dictionary whose tables hold each string, function, location, stack and link once.
 */
public final class ProfilesRequestBuilder {

	static final String SCOPE_NAME = "dev.spanprofile";

	private static final HexFormat HEX = HexFormat.of();

	private final FrameTable frames;

	private final long intervalNanos;

	private final Map<String, Integer> strings = new HashMap<>();

	private final ProfilesDictionary.Builder dictionary = ProfilesDictionary.newBuilder();

	/** Location index of each frame id; a frame is its own function with one line. */
	private final Map<Integer, Integer> locations = new HashMap<>();

	private final Map<StackKey, Integer> stacks = new HashMap<>();

	private final Map<String, Integer> links = new HashMap<>();

	private final Map<SampleKind, Profile.Builder> profiles = new EnumMap<>(SampleKind.class);

	/**
	 * @param frames names of the frame ids in the samples
	 * @param intervalNanos time one sample stands for
	 */
	public ProfilesRequestBuilder(FrameTable frames, long intervalNanos) {
		this.frames = frames;
		this.intervalNanos = intervalNanos;
		// Index 0 of every table is its zero value, so that 0 means "not set".
		string("");
		this.dictionary.addMappingTable(Mapping.getDefaultInstance());
		this.dictionary.addLocationTable(Location.getDefaultInstance());
		this.dictionary.addFunctionTable(Function.getDefaultInstance());
		this.dictionary.addStackTable(Stack.getDefaultInstance());
		this.dictionary.addAttributeTable(KeyValueAndUnit.getDefaultInstance());
		this.dictionary.addLinkTable(Link.newBuilder()
			.setTraceId(ByteString.copyFrom(new byte[16]))
			.setSpanId(ByteString.copyFrom(new byte[8])));
		this.links.put("", 0);
	}

	/**
	 * Add the samples of one span; each distinct stack becomes a sample linked to that
	 * span.
	 */
	public ProfilesRequestBuilder add(LinkedSamples span) {
		Profile.Builder profile = this.profiles.computeIfAbsent(span.kind(), this::newProfile);
		int link = link(span.traceId(), span.spanId());
		boolean timed = isTime(span.kind());
		span.samples().visit((path, depth, total, self) -> {
			if (self == 0) {
				return;
			}
			profile.addSamples(Sample.newBuilder()
				.setStackIndex(stack(path, depth))
				.setLinkIndex(link)
				.addValues(timed ? self * this.intervalNanos : self));
		});
		return this;
	}

	/**
	 * @param resource the application's resource; its attributes describe the profiles
	 * @param startEpochNanos when the period these samples cover began
	 * @param durationNanos how long it lasted
	 */
	public ExportProfilesServiceRequest build(Resource resource, long startEpochNanos, long durationNanos) {
		ScopeProfiles.Builder scope = ScopeProfiles.newBuilder()
			.setScope(InstrumentationScope.newBuilder().setName(SCOPE_NAME));
		for (Profile.Builder profile : this.profiles.values()) {
			scope.addProfiles(profile.setTimeUnixNano(startEpochNanos).setDurationNano(durationNanos));
		}
		io.opentelemetry.proto.resource.v1.Resource.Builder protoResource = io.opentelemetry.proto.resource.v1.Resource
			.newBuilder();
		resource.getAttributes().forEach((key, value) -> protoResource.addAttributes(keyValue(key, value)));
		ResourceProfiles.Builder resourceProfiles = ResourceProfiles.newBuilder()
			.setResource(protoResource)
			.addScopeProfiles(scope);
		if (resource.getSchemaUrl() != null) {
			resourceProfiles.setSchemaUrl(resource.getSchemaUrl());
		}
		return ExportProfilesServiceRequest.newBuilder()
			.addResourceProfiles(resourceProfiles)
			.setDictionary(this.dictionary)
			.build();
	}

	/** Whether nothing was added. */
	public boolean isEmpty() {
		return this.profiles.values().stream().allMatch((profile) -> profile.getSamplesCount() == 0);
	}

	private Profile.Builder newProfile(SampleKind kind) {
		String type = kind.id();
		boolean timed = isTime(kind);
		ValueType valueType = ValueType.newBuilder()
			.setTypeStrindex(string(type))
			.setUnitStrindex(string(timed ? "nanoseconds" : kind.unit()))
			.build();
		return Profile.newBuilder()
			.setSampleType(valueType)
			.setPeriodType(valueType)
			.setPeriod(timed ? this.intervalNanos : 1);
	}

	/**
	 * cpu and wall samples each stand for one sampling interval of time; the weight of
	 * the other kinds is itself the measure (bytes allocated, nanoseconds waited).
	 */
	private static boolean isTime(SampleKind kind) {
		return kind.counted();
	}

	private int stack(int[] rootFirst, int depth) {
		// OTLP lists a stack leaf first, like pprof.
		int[] leafFirst = new int[depth];
		for (int i = 0; i < depth; i++) {
			leafFirst[i] = location(rootFirst[depth - 1 - i]);
		}
		StackKey key = new StackKey(leafFirst);
		Integer known = this.stacks.get(key);
		if (known != null) {
			return known;
		}
		Stack.Builder stack = Stack.newBuilder();
		for (int location : leafFirst) {
			stack.addLocationIndices(location);
		}
		int index = this.dictionary.getStackTableCount();
		this.dictionary.addStackTable(stack);
		this.stacks.put(key, index);
		return index;
	}

	private int location(int frame) {
		Integer known = this.locations.get(frame);
		if (known != null) {
			return known;
		}
		int name = string(this.frames.name(frame));
		int function = this.dictionary.getFunctionTableCount();
		this.dictionary.addFunctionTable(Function.newBuilder().setNameStrindex(name).setSystemNameStrindex(name));
		int index = this.dictionary.getLocationTableCount();
		this.dictionary.addLocationTable(Location.newBuilder().addLines(Line.newBuilder().setFunctionIndex(function)));
		this.locations.put(frame, index);
		return index;
	}

	private int link(String traceId, String spanId) {
		return this.links.computeIfAbsent(traceId + spanId, (key) -> {
			int index = this.dictionary.getLinkTableCount();
			this.dictionary.addLinkTable(Link.newBuilder()
				.setTraceId(ByteString.copyFrom(HEX.parseHex(traceId)))
				.setSpanId(ByteString.copyFrom(HEX.parseHex(spanId))));
			return index;
		});
	}

	private int string(String value) {
		return this.strings.computeIfAbsent(value, (key) -> {
			int index = this.dictionary.getStringTableCount();
			this.dictionary.addStringTable(key);
			return index;
		});
	}

	private static KeyValue keyValue(AttributeKey<?> key, Object value) {
		AnyValue.Builder any = AnyValue.newBuilder();
		if (value instanceof String text) {
			any.setStringValue(text);
		}
		else if (value instanceof Boolean flag) {
			any.setBoolValue(flag);
		}
		else if (value instanceof Long number) {
			any.setIntValue(number);
		}
		else if (value instanceof Double number) {
			any.setDoubleValue(number);
		}
		else {
			// Array attributes: their text form is enough to identify a service.
			any.setStringValue(String.valueOf(value));
		}
		return KeyValue.newBuilder().setKey(key.getKey()).setValue(any).build();
	}

	private record StackKey(int[] locations) {

		@Override
		public boolean equals(Object other) {
			return other instanceof StackKey that && Arrays.equals(this.locations, that.locations);
		}

		@Override
		public int hashCode() {
			return Arrays.hashCode(this.locations);
		}

		@Override
		public String toString() {
			return Arrays.toString(this.locations);
		}

	}

}
