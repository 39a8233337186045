package dev.spanprofile.sampling;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every engine names, classifies and keys frames through this one converter. */
class StackConverterTest {

	@Test
	void aNameIsTwoFramesWhenItsKindsDiffer() {
		FrameTable frames = new FrameTable();
		StackConverter converter = new StackConverter(frames);
		int java = converter.frame("jdk.internal.misc.Unsafe.park", FrameKind.JAVA);
		int nativeFrame = converter.frame("jdk.internal.misc.Unsafe.park", FrameKind.NATIVE);
		assertThat(nativeFrame).isNotEqualTo(java);
		assertThat(frames.kind(nativeFrame)).isEqualTo(FrameKind.NATIVE);
		// A second converter (another engine) over the same table agrees on both.
		StackConverter other = new StackConverter(frames);
		assertThat(other.frame("jdk.internal.misc.Unsafe.park", FrameKind.JAVA)).isEqualTo(java);
		assertThat(other.frame("jdk.internal.misc.Unsafe.park", FrameKind.NATIVE)).isEqualTo(nativeFrame);
	}

	@Test
	void frameTypesOfTheJdkAndOfAsyncProfilerMapToOneSetOfKinds() {
		assertThat(StackConverter.kind("Interpreted")).isEqualTo(FrameKind.JAVA);
		assertThat(StackConverter.kind("JIT compiled")).isEqualTo(FrameKind.JAVA);
		assertThat(StackConverter.kind("Inlined")).isEqualTo(FrameKind.JAVA);
		assertThat(StackConverter.kind("Native")).isEqualTo(FrameKind.NATIVE);
		assertThat(StackConverter.kind("C++")).isEqualTo(FrameKind.NATIVE);
		assertThat(StackConverter.kind("Kernel")).isEqualTo(FrameKind.KERNEL);
		assertThat(StackConverter.kind((byte) 3)).isEqualTo(FrameKind.NATIVE);
		assertThat(StackConverter.kind((byte) 5)).isEqualTo(FrameKind.KERNEL);
		assertThat(StackConverter.name("com/acme/Shop", "buy")).isEqualTo("com.acme.Shop.buy");
		assertThat(StackConverter.name(null, "memcpy")).isEqualTo("memcpy");
	}

}
