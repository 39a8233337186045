package dev.spanprofile.otlp;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.sdk.resources.Resource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProfilesRequestBuilderTest {

	private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

	private static final String SPAN_A = "b7ad6b7169203331";

	private static final String SPAN_B = "00f067aa0ba902b7";

	private static final long INTERVAL = 10_000_000L;

	private final FrameTable frames = new FrameTable();

	private final int main = this.frames.intern("Main.main", FrameKind.JAVA);

	private final int handle = this.frames.intern("Web.handle", FrameKind.JAVA);

	private final int query = this.frames.intern("Db.query", FrameKind.JAVA);

	private final int hash = this.frames.intern("Crypto.hash", FrameKind.JAVA);

	@Test
	void oneSamplePerStackAndSpanLinkedToThatSpanWithTimeValues() throws Exception {
		StackTree a = tree(new int[] { this.main, this.handle, this.query }, 3);
		a.add(new int[] { this.main, this.handle, this.hash }, 2);
		StackTree b = tree(new int[] { this.main, this.handle, this.query }, 5);
		ExportProfilesServiceRequest request = decode(new ProfilesRequestBuilder(this.frames, INTERVAL)
			.add(new LinkedSamples(TRACE, SPAN_A, SampleKind.CPU, a))
			.add(new LinkedSamples(TRACE, SPAN_B, SampleKind.CPU, b))
			.build(resource(), 1_000, 2_000));
		ProfilesDictionary dictionary = request.getDictionary();
		Profile cpu = onlyProfile(request);
		assertThat(string(dictionary, cpu.getSampleType().getTypeStrindex())).isEqualTo("cpu");
		assertThat(string(dictionary, cpu.getSampleType().getUnitStrindex())).isEqualTo("nanoseconds");
		assertThat(string(dictionary, cpu.getPeriodType().getTypeStrindex())).isEqualTo("cpu");
		assertThat(cpu.getPeriod()).isEqualTo(INTERVAL);
		assertThat(cpu.getTimeUnixNano()).isEqualTo(1_000);
		assertThat(cpu.getDurationNano()).isEqualTo(2_000);
		List<String> described = new ArrayList<>();
		for (Sample sample : cpu.getSamplesList()) {
			Link link = dictionary.getLinkTable(sample.getLinkIndex());
			described.add(HexFormat.of().formatHex(link.getSpanId().toByteArray()) + " "
					+ HexFormat.of().formatHex(link.getTraceId().toByteArray()) + " " + leafFirst(dictionary, sample)
					+ " " + sample.getValuesList());
		}
		assertThat(described).containsExactlyInAnyOrder(
				SPAN_A + " " + TRACE + " [Db.query, Web.handle, Main.main] [" + 3 * INTERVAL + "]",
				SPAN_A + " " + TRACE + " [Crypto.hash, Web.handle, Main.main] [" + 2 * INTERVAL + "]",
				SPAN_B + " " + TRACE + " [Db.query, Web.handle, Main.main] [" + 5 * INTERVAL + "]");
	}

	@Test
	void dictionaryHoldsEachItemOnceAfterItsZeroValue() throws Exception {
		StackTree a = tree(new int[] { this.main, this.handle, this.query }, 3);
		StackTree b = tree(new int[] { this.main, this.handle, this.query }, 5);
		ExportProfilesServiceRequest request = decode(new ProfilesRequestBuilder(this.frames, INTERVAL)
			.add(new LinkedSamples(TRACE, SPAN_A, SampleKind.CPU, a))
			.add(new LinkedSamples(TRACE, SPAN_A, SampleKind.WALL, b))
			.add(new LinkedSamples(TRACE, SPAN_B, SampleKind.CPU, b))
			.build(resource(), 0, 1));
		ProfilesDictionary dictionary = request.getDictionary();
		assertThat(dictionary.getStringTable(0)).isEmpty();
		assertThat(dictionary.getStringTableList()).doesNotHaveDuplicates();
		// The same stack in two spans and two kinds: one stack, three locations, three
		// functions (+ zero values).
		assertThat(dictionary.getStackTableCount()).isEqualTo(2);
		assertThat(dictionary.getStackTable(0).getLocationIndicesCount()).isZero();
		assertThat(dictionary.getLocationTableCount()).isEqualTo(4);
		assertThat(dictionary.getFunctionTableCount()).isEqualTo(4);
		assertThat(dictionary.getMappingTableCount()).isEqualTo(1);
		assertThat(dictionary.getAttributeTableCount()).isEqualTo(1);
		// Two spans linked, after the zero link of 16 and 8 zero bytes.
		assertThat(dictionary.getLinkTableCount()).isEqualTo(3);
		assertThat(dictionary.getLinkTable(0).getTraceId().toByteArray()).containsOnly(0).hasSize(16);
		assertThat(dictionary.getLinkTable(0).getSpanId().toByteArray()).containsOnly(0).hasSize(8);
		List<Profile> profiles = request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList();
		assertThat(profiles).extracting((profile) -> string(dictionary, profile.getSampleType().getTypeStrindex()))
			.containsExactlyInAnyOrder("cpu", "wall");
	}

	@Test
	void resourceAttributesAndScopeAreSet() throws Exception {
		ExportProfilesServiceRequest request = decode(new ProfilesRequestBuilder(this.frames, INTERVAL)
			.add(new LinkedSamples(TRACE, SPAN_A, SampleKind.CPU, tree(new int[] { this.main }, 1)))
			.build(resource(), 0, 1));
		assertThat(request.getResourceProfiles(0).getResource().getAttributesList()).anySatisfy((attribute) -> {
			assertThat(attribute.getKey()).isEqualTo("service.name");
			assertThat(attribute.getValue().getStringValue()).isEqualTo("orders");
		}).anySatisfy((attribute) -> {
			assertThat(attribute.getKey()).isEqualTo("process.pid");
			assertThat(attribute.getValue().getIntValue()).isEqualTo(42);
		});
		assertThat(request.getResourceProfiles(0).getScopeProfiles(0).getScope().getName())
			.isEqualTo("dev.spanprofile");
	}

	@Test
	void emptyTreesAddNoSamples() {
		ProfilesRequestBuilder builder = new ProfilesRequestBuilder(this.frames, INTERVAL);
		assertThat(builder.isEmpty()).isTrue();
		builder.add(new LinkedSamples(TRACE, SPAN_A, SampleKind.CPU, new StackTree()));
		assertThat(builder.isEmpty()).isTrue();
	}

	private static StackTree tree(int[] stack, long weight) {
		StackTree tree = new StackTree();
		tree.add(stack, weight);
		return tree;
	}

	private static Resource resource() {
		return Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "orders",
				AttributeKey.longKey("process.pid"), 42L));
	}

	private static ExportProfilesServiceRequest decode(ExportProfilesServiceRequest built) throws Exception {
		// Through the wire format, as a receiver sees it.
		return ExportProfilesServiceRequest.parseFrom(built.toByteArray());
	}

	private static Profile onlyProfile(ExportProfilesServiceRequest request) {
		assertThat(request.getResourceProfilesCount()).isEqualTo(1);
		assertThat(request.getResourceProfiles(0).getScopeProfilesCount()).isEqualTo(1);
		assertThat(request.getResourceProfiles(0).getScopeProfiles(0).getProfilesCount()).isEqualTo(1);
		return request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0);
	}

	private static String string(ProfilesDictionary dictionary, int index) {
		return dictionary.getStringTable(index);
	}

	static List<String> leafFirst(ProfilesDictionary dictionary, Sample sample) {
		List<String> names = new ArrayList<>();
		for (int location : dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
			int function = dictionary.getLocationTable(location).getLines(0).getFunctionIndex();
			names.add(dictionary.getStringTable(dictionary.getFunctionTable(function).getNameStrindex()));
		}
		return names;
	}

}
