package dev.spanprofile.benchmarks.overhead.pages;

import java.time.LocalDate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;

@Entity
public class Visit {

	@Id
	@GeneratedValue
	private Integer id;

	private LocalDate date;

	private String description;

	@ManyToOne
	private Pet pet;

	protected Visit() {
	}

	Visit(Pet pet, LocalDate date, String description) {
		this.pet = pet;
		this.date = date;
		this.description = description;
	}

	public LocalDate getDate() {
		return this.date;
	}

	public String getDescription() {
		return this.description;
	}

}
