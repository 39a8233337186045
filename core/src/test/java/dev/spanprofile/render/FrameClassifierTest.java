package dev.spanprofile.render;

import java.util.List;

import dev.spanprofile.profile.FrameKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FrameClassifierTest {

	@Test
	void applicationPackagesComeFirstThenJdkThenEverythingElseIsALibrary() {
		FrameClassifier classifier = new FrameClassifier(List.of("com.acme.shop"));
		assertThat(classifier.classify("com.acme.shop.OrderController.checkout", FrameKind.JAVA))
			.isEqualTo(FrameCategory.APPLICATION);
		assertThat(classifier.classify("com.acme.shop.OrderController$$Lambda.0x00007f.apply", FrameKind.JAVA))
			.isEqualTo(FrameCategory.APPLICATION);
		assertThat(classifier.classify("com.acme.shopping.Other.run", FrameKind.JAVA))
			.isEqualTo(FrameCategory.FRAMEWORK);
		assertThat(classifier.classify("java.util.HashMap.get", FrameKind.JAVA)).isEqualTo(FrameCategory.JDK);
		assertThat(classifier.classify("jdk.internal.misc.Unsafe.park", FrameKind.JAVA)).isEqualTo(FrameCategory.JDK);
		assertThat(classifier.classify("org.springframework.web.servlet.DispatcherServlet.doDispatch", FrameKind.JAVA))
			.isEqualTo(FrameCategory.FRAMEWORK);
		assertThat(classifier.classify("net.unknown.Thing.run", FrameKind.JAVA)).isEqualTo(FrameCategory.FRAMEWORK);
		assertThat(classifier.classify("__memcpy_avx_unaligned", FrameKind.NATIVE)).isEqualTo(FrameCategory.NATIVE);
		assertThat(classifier.classify("do_syscall_64", FrameKind.KERNEL)).isEqualTo(FrameCategory.KERNEL);
	}

	@Test
	void withoutKnownPackagesUnknownJavaCodeIsTakenForTheApplication() {
		FrameClassifier classifier = new FrameClassifier(List.of());
		assertThat(classifier.classify("net.unknown.Thing.run", FrameKind.JAVA)).isEqualTo(FrameCategory.APPLICATION);
		assertThat(classifier.classify("org.apache.catalina.Valve.invoke", FrameKind.JAVA))
			.isEqualTo(FrameCategory.FRAMEWORK);
		assertThat(classifier.classify("sun.nio.ch.EPoll.wait", FrameKind.JAVA)).isEqualTo(FrameCategory.JDK);
	}

	@Test
	void shortNamesKeepClassAndMethod() {
		assertThat(FrameNames.shortName("com.acme.shop.OrderController.checkout"))
			.isEqualTo("OrderController.checkout");
		assertThat(FrameNames.shortName("com.acme.Outer$$Lambda.0x00007f1e4887e240.applyAsLong"))
			.isEqualTo("Outer$$Lambda.0x00007f1e4887e240.applyAsLong");
		assertThat(FrameNames.shortName("do_syscall_64")).isEqualTo("do_syscall_64");
	}

}
