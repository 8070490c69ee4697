package score

// field is a bit for each scored part of a document.
type field uint8

const (
	fieldTitle field = 1 << iota
	fieldDescription
	fieldBody
)

// Field weights per matching query token (spec §3.5).
const (
	TitleWeight       = 4
	DescriptionWeight = 3
	BodyWeight        = 1
)

// fieldWeight is the score one query token earns from the fields it
// matches, indexed by their mask.
var fieldWeight = [8]int32{
	0,
	TitleWeight,
	DescriptionWeight,
	TitleWeight + DescriptionWeight,
	BodyWeight,
	TitleWeight + BodyWeight,
	DescriptionWeight + BodyWeight,
	TitleWeight + DescriptionWeight + BodyWeight,
}
