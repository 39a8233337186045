package dev.spanprofile.benchmarks.overhead.pages;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The page-heavy application of the overhead benchmark, built like most Spring sites (and
 * like the PetClinic that showed the cost): server-rendered Thymeleaf pages over Spring
 * Data JPA (Hibernate on in-memory H2), so that a request spends its milliseconds in deep
 * framework stacks (Tomcat, Spring MVC, Thymeleaf, Hibernate, JDBC), not in one hot loop.
 * Started in a JVM of its own by the benchmark, which passes every setting as an
 * argument.
 */
@SpringBootApplication
public class PageApplication {

	public static void main(String[] args) {
		SpringApplication.run(PageApplication.class, args);
	}

}
