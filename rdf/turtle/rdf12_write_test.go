package turtle_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/ntriples"
	"github.com/isolda/isolda/rdf/turtle"
)

// writer11SHA256 is the SHA-256 of what Write produced, before it learnt
// the RDF 1.2 reification syntax, for every expected result of the W3C
// RDF 1.1 Turtle and TriG eval tests (path relative to the conformance
// folder). RDF 1.1 data must still be written byte for byte the same.
const writer11SHA256 = `trig/HYPHEN_MINUS_in_localName.nq 875bffb042c04f70368ceaded0da3f9615d965ae2552d4cb9985697723063a38
trig/IRI-resolution-01.nq 05f2555141ced358cbbf04cc357363ff494cb22ac5a629929c5fc5793cebb31c
trig/IRI-resolution-02.nq 556d9de50748d0aaf180d3163d23e2c75692bc161e210abf7aef6b0ba6877c63
trig/IRI-resolution-07.nq bf09319e598ce0f2b256435cd2f5cb14b82ea227bdfbcb775c768af6c41f7bf1
trig/IRI-resolution-08.nq 6bff1492b7dc2d37922c26a3bd3b35531667701a64cca53d1dccd5742a82f6be
trig/IRIREF_datatype.nq 44f67d7aedc29a58f5dbb09ec0f0f414d0e0a666296ed43f884f4d00cb50d9cc
trig/IRI_spo.nq c8c70ba54f7c01021f798152d30ba832a09e77aad95cff8597503bc731b08cbc
trig/IRI_with_all_punctuation.nq 05f760ee5f87daed4c886e83bd19283561c8ead722c47e4b53512fcf4a247973
trig/LITERAL1.nq 30eedb84c17d5417744ba03ab964bfd92b7fd8ec81dee9067487422b6ebba66d
trig/LITERAL1_all_controls.nq ef6d523888f01e3d3141a545b1a9570a5403496e2249130e562d8d34831e4d13
trig/LITERAL1_all_punctuation.nq 09549af993ef8f9c6251cede498f38a40579238c066ce6dff673d34853c5888f
trig/LITERAL1_ascii_boundaries.nq 77f521dfd23813c0a7a1b2980da7eff3eef5b70c4163f158456e47bac5dacd55
trig/LITERAL2_ascii_boundaries.nq b94ec2ae71d1daa25e80b44dca05d010bee0698507094811a5f8f822fb7110d8
trig/LITERAL_LONG1_ascii_boundaries.nq 6da3feb49f7b65c58fd3b455d9fe1fd081519b1cbd4971c168a495b180dd6974
trig/LITERAL_LONG1_with_1_squote.nq 2c732737577909bfc4b0dfa61672219675b72542faba4803efa030f6f19ecc66
trig/LITERAL_LONG1_with_2_squotes.nq 43bdc8f454a3c4fe4825779c088deb75d37dbcbfe9172849ef0e09cbef5b8c54
trig/LITERAL_LONG2_ascii_boundaries.nq bf62d9f55bb33f63587088c7c9a689b1317f2c6a4ad3c4a57e518de48763ff21
trig/LITERAL_LONG2_with_1_squote.nq 5d9208f4df03ad30a84601aecfc9c412ec8c128736596ec19e205f56a7563b15
trig/LITERAL_LONG2_with_2_squotes.nq b2f680cd9336eb386b99a2272eb8c52e27c6de2fd195c7407eb49a30b8ebd0fb
trig/LITERAL_LONG2_with_REVERSE_SOLIDUS.nq 87714357c7c0840f2e4f97707556b13c21d4178786b41304b0c0b1bf77f470b2
trig/LITERAL_with_UTF8_boundaries.nq a781b65f4770c37623aa99d8b8b4feb54a4c7979ca66866db1cd96ac60b274bd
trig/alternating_bnode_graphs.nq 80c31a1874450693bb72ad00079bd1cc47b99de123ce81a820831e8a22d3fd15
trig/alternating_iri_graphs.nq a1e1023b4eaad59e9bce1dc62e6d9e9c78f0b14b32958ce83853cf8769c9836c
trig/anonymous_blank_node_object.nq 1c08c1d82116fe2c6b7dab7a60d9a97dc2f7dc698975730b1980a74469d8a89a
trig/anonymous_blank_node_subject.nq 621e1399ab3cd16114bab2077cf0a5fcbc97dd52674eacc80e3d8f79051bf8f6
trig/bareword_a_predicate.nq e0ac025d5fec991aab901b89e2f3740555f0ebe223caa6b55d13f045cc73580f
trig/bareword_decimal.nq a0e64b988a70e4ffc3fc1744c0849478d3bb66d0cfc3fde684866eff348ae27d
trig/bareword_double.nq 8abe3ebf96c32f61950ea6d96050469cf94acc07dc6ee5d13c1c06f346bb4fa8
trig/blankNodePropertyList_as_object.nq 0a81c0546023271ef421b0165d02f0c01b1280e42ab26e67a2d07d3ab4ac51da
trig/blankNodePropertyList_as_object_containing_objectList.nq fb7931d1e56ac39df0a1ecac19ebaf6b6a2eb3115bef822b825e8c8376f9d809
trig/blankNodePropertyList_as_object_containing_objectList_of_two_objects.nq a9e151e2538aaf379b8f4d374245b66c9b05e2b44ea26a7192e27a053be0a926
trig/blankNodePropertyList_as_subject.nq 6ec47cf0660cae34d3479f397ece1f64fb1478aa53636ec10e6a94f4e70e841d
trig/blankNodePropertyList_containing_collection.nq b480ce60fc3984bb32bb058c540b8076e77deecdc49f1808922aeb26d96e6ac0
trig/blankNodePropertyList_with_multiple_triples.nq 12dc77dd1145be49dde875bafc0be158de263a7350c5e4590932d76e9769389b
trig/collection_object.nq 7c6dc1d42d5c4225be61a366b0273f03def3aff16fd9a425068c53b662572ca2
trig/collection_subject.nq 42dd72866e4c7371b5d3d0e64a92b964d00143c8514d1cea22fe102ac9f6b93c
trig/comment_following_PNAME_NS.nq 6f94df824b3420e7424cf685c3faaa8a1662dea85c4f2da59e5ec0179a569345
trig/double_lower_case_e.nq 3bd62f8b8d6eb5582e3ff5fffe71a574d94fa9c496d16dc21af7c2188b089d07
trig/empty_collection.nq 24fa7a12ae988ca6d1713734c52522bf2f5e9f93875f43de3a537e10e5c18e22
trig/first.nq e6cae2ce926274990fa09ff1af3b61e7700c2206ea0c17c47517d84207a4d6d4
trig/labeled_blank_node_graph.nq 00723f5414632870f08ce59f12c9596f3b0777d06cb06248af2f21b3b6907e9f
trig/labeled_blank_node_object.nq ff00297f5f533c24647135de71915438ccff1d43f89c0d860a69e565d7902c04
trig/labeled_blank_node_subject.nq 838a7c7df67c11fbc9766528cd4ffee67f1965c8ae955d33274c30a596be18e4
trig/langtagged_LONG_with_subtag.nq ca9a934fe2d39659b17ae2a565f23ca63dfdbc99c1bfc733c2eeae7a76f77c6b
trig/langtagged_non_LONG.nq e5ccda703ebaba33b0260a7829c14de696fbb407d316e9ccd64cce25498ab8b4
trig/lantag_with_subtag.nq c0600538e49490df19c4a8e8c722d3c77df8de2e5982ed5aae0b09ba478b98eb
trig/last.nq 688033ed0d56768c8b6f62c060e2621a3206cd1353006a0a0e63888877d60249
trig/literal_false.nq 0837e6b69eb09d337a3698a69d18ec56061b7f3ed28e996271ea7681e17d10bd
trig/literal_true.nq 9fc8393627f7b8a1528446d58582653200e7ee34a83084f1c54b3d5584ef6231
trig/literal_with_BACKSPACE.nq 9e88c81adade9aba9d182cde26d3f5cc1d1617aaddfc01471917f23f44e57ed4
trig/literal_with_CARRIAGE_RETURN.nq 2d40cbb9560acf60c9ef2c49e28077566dbc7581ea454611b21d7ba1ae347634
trig/literal_with_CHARACTER_TABULATION.nq eeae64e5f6f6bf171d8d7f370f99cd5775cb1d063ae256d3d35e96e3acc5c516
trig/literal_with_FORM_FEED.nq 50e845bb2b0a8d0fa5c9868d79ef877e53abb2afa12076f56a9e571fc391bb14
trig/literal_with_LINE_FEED.nq 9d4b6aeb77cb09e04677fb6494c059b69dd09f5ce33bfb2cb93068066223fc54
trig/literal_with_REVERSE_SOLIDUS.nq 1cd0677e07f5c19b30ecf0e05f35fdb0d7ff446da88f6ff62ab16548ed294541
trig/literal_with_numeric_escape4.nq 853ff96838901e6e2024250b564ad02fb89a9abe696d59ee1322beaf0fe04355
trig/localName_with_assigned_nfc_PN_CHARS_BASE_character_boundaries.nq 9aa7a64b72f57f23e50e176e7dfb87d3a519bd03ca4c69c194d9b89a4bc252af
trig/localName_with_assigned_nfc_bmp_PN_CHARS_BASE_character_boundaries.nq 7f22b86858bb0d2c53ec7226234e41c2d8bcbcbb9a89014ea238124729265359
trig/localName_with_leading_digit.nq acdddc43f552c22f5fc9a230c20a94815bc99846b2e19cda8217d053a7152d4b
trig/localName_with_leading_underscore.nq 74193f8cbd76c91fabaf62440eb8943d1dfea4fca3a6af3f19f9191a528d1586
trig/localName_with_nfc_PN_CHARS_BASE_character_boundaries.nq 17c74419669697ffdc9031c59703dcf7c1d0a30ee82b9ddcc10880e156a3b827
trig/localName_with_non_leading_extras.nq 34794b8eb8b8ca8a97ebf424a27478c0a99eb33d0e6fdd8da5abfce9314ede5c
trig/localname_with_COLON.nq f8accf5a8d048775f61bacc87d0df693e990e9de92076f800eee952fa3d10975
trig/negative_numeric.nq 1bc069994defa18ca09bf4f425425a3123934e772ae1093e8a676d629b17091d
trig/nested_blankNodePropertyLists.nq a688af7e2965dc44510560de87a19ef6d55216919ff2f4707c0ac94801cf8daa
trig/nested_collection.nq 6926340f4c33bea7c110fed2534632beba6a5f486333317a1a7705529ea43d0a
trig/number_sign_following_PNAME_NS.nq fb401fca823b8732df129afae19d16667ab413256cf61a03cce0017a5430f922
trig/number_sign_following_localName.nq a75d5cd3ac2b246124881606e456833c25c79a07ba82c8a5a8d6e86c2cd3ec19
trig/numeric_with_leading_0.nq 56e5eefb90878e9b1bae1251baa5d2029639570e7c434db03f12ebae2ca68d8c
trig/objectList_with_two_objects.nq 635651c229099d00a844cb956ae63e0e573ed9a1452ff2555292c46301c3eb39
trig/percent_escaped_localName.nq 4c9a9aa51654403ab8982efac569fdd1242b001b854d56d8eda2248f125f4ea1
trig/positive_numeric.nq 0912ac2156cc6bb2a74c16a0b3ab3be79a5358d7f3e04030666af674f2402498
trig/predicateObjectList_with_blankNodePropertyList_as_object.nq 8955e2f97ecb8115749ea7d1ab6e351784107ef66011f21830eb0a0e2f8a29df
trig/predicateObjectList_with_two_objectLists.nq 465dc237f8dfb5ed7744f3bb3e0f57c8a50c8dbd72b39707d3a14251f58456e6
trig/prefix_reassigned_and_used.nq e5e78c78f888dccbeabfbde176a740c4dd8f9c966928f9e80e8635c3a2a8c846
trig/repeated_semis_not_at_end.nq 56d11bcf8be8c9f85bf60628bd203baa1cb65cddef342d59b5c96dddd28219b4
trig/reserved_escaped_localName.nq b11be6c2fd47fb31ff7b7ee548ffd338cc4c923d78fa57f0164ba4dfe0779feb
trig/sole_blankNodePropertyList.nq c45bb916a724c5e9e627bcb2b0b894231573de8ebcbb5ebb3770e97012dd5771
trig/trig-eval-struct-01.nq c4c9ed6a71ebe2719a413a28c395c195aed893a530e82527f053d0335114b6cf
trig/trig-eval-struct-02.nq a335a1f8c54e1c7ffce026de9eff5cad26724a4e3d0b0e63609439ea93a388f2
trig/trig-subm-01.nq ba9e8faf180aa713e7db096da04b166c28bce16055b8e74e432a3d410b08d148
trig/trig-subm-02.nq 8a6d9088f42598eb7b922f6777e0f58f6e1ae3f4f4ff0d195ed72de02fe651fe
trig/trig-subm-03.nq 6e2a10e79a417755f9c32d09b466b8eb3e3b4747be012bac306ad73dccaf46f3
trig/trig-subm-04.nq bc346784bc0599db7fa4969e58e2abb2536e546742842ce1dae98247a1b7bbdf
trig/trig-subm-05.nq 003a7148a847da3c44f70ce52acbc21ac783c968ba16ab766fc87597a7141b3d
trig/trig-subm-06.nq 6469b25041d7ace700ba14c403d68f9e80605865a350f64666a312a9a41ffa6e
trig/trig-subm-07.nq adacd7a4e21ba93fac5478d61ae7bded93a82cff4280f0281e3ca666d49e7dc0
trig/trig-subm-08.nq bd9420627ad3fd78be2833a0949ce9b465e60db245b854d84a3f54ca92a45a20
trig/trig-subm-09.nq 0c8bbd52b40bf7a120eef21b1d8e47943fd6c82c16535dabaac41aa33179f9c0
trig/trig-subm-10.nq 266f9103645425736f067a7fea1696d62cc22bf8dc5086134dd3b6d55672e9ac
trig/trig-subm-11.nq 15ae1334bfe2592ee6511126fe56c975b367cca21df41fc458a0e63173bf389a
trig/trig-subm-12.nq a14b82c92ede885a1e50f0e8828ca0da7e13d38fee8e7584d872d072e368efbb
trig/trig-subm-13.nq ddf5dec8c211044c8bb7f4f31305f7709a02e3b1f6284e92ccc856dfdc7d4b92
trig/trig-subm-14.nq de7348e4efa354a54f88eb042b7bccf1b5b73f9329d23b26668f30357fefb1d9
trig/trig-subm-15.nq 7d5f678417f27d8132bcd4d3d350bec7065b120ef0afc13b2dc269a7b71fd354
trig/trig-subm-16.nq 90f1f05c1899a45af518df3dc744db4b6fc3d76b7c8ac660613176f9174894f9
trig/trig-subm-17.nq 7db67851d7cb222b458bd026a65c276bcd3971de3f42ec0d50a1d14363f5d26b
trig/trig-subm-18.nq 81f82f76c71a871c31f123b0bca96b3c6ad346cc65cfb6421e54e026d8442283
trig/trig-subm-19.nq b0811feae350549ec77cb68688e47912f8a8d135cdd4b2d18d9b0ce14f62e922
trig/trig-subm-20.nq 30f6485d773f07b636c65b150d41c7a39ed6e0214fbcd3da9340c8cd9766d9b8
trig/trig-subm-21.nq 101f95ec9adf42a321573cbdebaf8dd45a77b26d390311726af328c88dc660fc
trig/trig-subm-22.nq 1467fd339a8ddbaacf0c00c381571f2c27e7ef13451dd4dd02e32a19cf49f8e1
trig/trig-subm-23.nq 9346b0fbbb4c60bf12f2263f3ac66d1df0c42aea33779df78d78c7b46f973f58
trig/trig-subm-24.nq 14457e6c60d0a45020ee025f3d8cad06a28c947b229b3d4083a163515731eb48
trig/trig-subm-25.nq 8eeeac9d174fdfd851ee57388fb2f3a5dccedba53c522a39a48c158a0eddf61c
trig/trig-subm-26.nq 9f28839cd67ab0d6168b94c1dae727d315e96ded4933cb8153d9f1538f904996
trig/trig-subm-27.nq 095f90394a4215267f546a98174b233b1544aa025be44517bf95b1d0e2643697
trig/two_LITERAL_LONG2s.nq 1a24e0d1d658340abf0fa9c881b7f527ed9e88c5416a10cee88b8535ad994efe
trig/underscore_in_localName.nq 2925eabdbc25dc4a4a3b4cb2c5303d593a4fa19328750f6357f238213098fc9b
turtle/HYPHEN_MINUS_in_localName.nt 98fa040cb3c470496bb3765185e909a0aac6ae61e3a2780e414d290c0206e55b
turtle/IRI-resolution-01.nt 05f2555141ced358cbbf04cc357363ff494cb22ac5a629929c5fc5793cebb31c
turtle/IRI-resolution-02.nt 556d9de50748d0aaf180d3163d23e2c75692bc161e210abf7aef6b0ba6877c63
turtle/IRI-resolution-07.nt bf09319e598ce0f2b256435cd2f5cb14b82ea227bdfbcb775c768af6c41f7bf1
turtle/IRI-resolution-08.nt 6bff1492b7dc2d37922c26a3bd3b35531667701a64cca53d1dccd5742a82f6be
turtle/IRIREF_datatype.nt 3a3ce3c28bc75959bbaf4f0e7774cfbd5772e269b0564653ed5f783e9a4ddca6
turtle/IRI_spo.nt 9b59264ba4ee34a59449374914f0bd160b086cc777f5bd331779c9edac64de25
turtle/IRI_with_all_punctuation.nt ab4b4ca5d5a577639cfd4acc1de43c8ce26e2c18e7db3691412b842f98b99a63
turtle/LITERAL1.nt b24ff4ccb0d509bf31fc58983edae333dc20a1fc28f5f024cd2ab4337cc31c9d
turtle/LITERAL1_all_controls.nt 7b7aac0c0e433c9dc71ef102f1b7ab7d4e5bcecadc22b82cfb664f656c9b8a9e
turtle/LITERAL1_all_punctuation.nt b99e958e7d9ae362ce4407ac50d3e5c58fdde7f5f54a6e0ec602fbfea6bfab27
turtle/LITERAL1_ascii_boundaries.nt a52b1695e93441666010b0dc72e2b63cc47a41759a3a881b65ccd3e64ca5f0f8
turtle/LITERAL2_ascii_boundaries.nt 12af0856cc550c34c8cedf6a9286989c381db9207a1eb21a6a9d3072a1e40735
turtle/LITERAL_LONG1_ascii_boundaries.nt 372dfa5b484c8846a68966004cc14033078af09b6368f4901f65cc52fec20265
turtle/LITERAL_LONG1_with_1_squote.nt 3d5df32954cf3948facf821bf4bbff46fdfa6fea9ef43dd960c03fa34a5821ba
turtle/LITERAL_LONG1_with_2_squotes.nt 3bbd0c143a9ac2aa90486ce6f07dcd14326b66bece4ff4bfd858fbc5e52458a2
turtle/LITERAL_LONG2_ascii_boundaries.nt 77c143f692d7e6b7ec840a2dd6aecc3bb11825df93609bf35945b8d0a7dabb94
turtle/LITERAL_LONG2_with_1_squote.nt 7aa7f8df1d0e579c485ea39436726b42ac6f4c6c1abab838d6566bc556685fe4
turtle/LITERAL_LONG2_with_2_squotes.nt 5292dd8326e9660d90995deb386d8228d794810e21b7d164d8b46eda7a8ac520
turtle/LITERAL_LONG2_with_REVERSE_SOLIDUS.nt 122791324b4196f85f723f145f88f7481f6f7e31fa994a42f5f8c46fbfe21814
turtle/LITERAL_with_UTF8_boundaries.nt a781b65f4770c37623aa99d8b8b4feb54a4c7979ca66866db1cd96ac60b274bd
turtle/bareword_a_predicate.nt 949df5f89e1fb3179b79a86952f5af53cd5d10d17d2e88db88f95025dcc2f658
turtle/bareword_decimal.nt 20c9f4850b95c4e1ecc8bf39bd924204da1f9f9ae1a81128dc55dd03fe1fbe80
turtle/bareword_double.nt 1145e7a8abc7c12391765efad6aca5834e0a3ca392bbec9e43cef4a9a0e02a66
turtle/blankNodePropertyList_as_object.nt 4ee8387b08053171e55b5d8c96dd4511bea36b132ad947726587b063685fb6f3
turtle/blankNodePropertyList_as_object_containing_objectList.nt 001755b0acd46e016558b73b28743ff378723be8c1684f4cbab2167af90f3fa9
turtle/blankNodePropertyList_as_object_containing_objectList_of_two_objects.nt db71815adbf1b58c8a1b661367ebdf506ea5a434867e4f1664e4451274603db4
turtle/blankNodePropertyList_as_subject.nt 6664e98daf34712f98c2fc9d2f6a3557826a1c5d11fa37c560c7b726fb670fa6
turtle/blankNodePropertyList_containing_collection.nt e2c24c186fd7226715935fc19fb27fa1d7669dfc7285d96c358652eab9ab0c71
turtle/blankNodePropertyList_with_multiple_triples.nt b3642aaa259b99bbbc08cf021e96dc9271540787c50dccacebf05df4d7783994
turtle/collection_object.nt e80b16cfaee164b22bfa3a84d84859d0bca3e855db74ff2d4cf1e3eadf839afd
turtle/collection_subject.nt d903c2a1e4223ae050cfe54c03bf293acbc10e279428420aebba07568bdb5616
turtle/comment_following_PNAME_NS.nt 6f94df824b3420e7424cf685c3faaa8a1662dea85c4f2da59e5ec0179a569345
turtle/double_lower_case_e.nt 4148a26cda5bd3ea3a79a95ac3c686fb9ed2002a6101113fec70d96b220df301
turtle/empty_collection.nt 3acfeaf1e470711a20a82a47cca98514e1292976eda87a5cc6d7e481121e023b
turtle/first.nt 8929889aa969c17dc39d477fea2597f4307a22465a26d08e13b709568a42d84d
turtle/labeled_blank_node_object.nt cb568d3d96868007d58cd008cccd0bafc4a5f33ed9ebeb7cfa82bb3407f25bb6
turtle/labeled_blank_node_subject.nt b050d293ac3cce691997197d9684568cb0648b1ec73aff468c976f1a4224b810
turtle/langtagged_LONG_with_subtag.nt 0c5cfe8a128dacf800543a493f36864d2cbae9c78c7d73b71482d7cab5808d94
turtle/langtagged_non_LONG.nt 08b70369b4df811e716fea578a3bb2233dfce2bd398bd95a5ce2e66e2ea6e89b
turtle/lantag_with_subtag.nt 80a499c5e479a296c5fa5b5f98af8f11a743100af63284a83d55dc0f85184525
turtle/last.nt da8a127fec7652c25903d05884fd9e30c356b8d86e4b3b2beacb7b5e8a3a9e0a
turtle/literal_false.nt a5ed0e2acc732d35c651c4eeeb338753c9b0d35f2cd7a20481c3abcedb00f9ab
turtle/literal_true.nt 2f6dd8ff1cf631bd715ffb40bbb25342d5e0452448500ace9789a9f6292d3b63
turtle/literal_with_BACKSPACE.nt 022ba512243fca353c1088bcc49709ee93b06aef895dba3633c0dbf03cf86035
turtle/literal_with_CARRIAGE_RETURN.nt 52e79321258db6a045bf66a1594bfa6c07ad1c95b2ad51fe828cd05b164a33d8
turtle/literal_with_CHARACTER_TABULATION.nt 2a48d7e65a17be107dd0d54c5f225e8b501cca8bb2f3ec0c3829452bb60773ec
turtle/literal_with_FORM_FEED.nt 9b0d574b4747aefd41355c7a183b94043a66d80791bf51877a7ce618981f1512
turtle/literal_with_LINE_FEED.nt 7c65bf82a911309870ca3233beb03872e59c7961ddb064791f778a3da5df377d
turtle/literal_with_REVERSE_SOLIDUS.nt b8791ff5811f4e9a396ddc752ae4c1407dced0d891348108b961cbb7e1bb8ab7
turtle/literal_with_numeric_escape4.nt 814c4121bc0142b2a2e6d175052de75d28dd53be522a72ac36b946b55ca1f4bb
turtle/localName_with_assigned_nfc_PN_CHARS_BASE_character_boundaries.nt 82d04d82bcc2fcf807b5eb2713fdef877df4c595aa4f86748173d7bfaa37eb5c
turtle/localName_with_assigned_nfc_bmp_PN_CHARS_BASE_character_boundaries.nt 3a4ff8412fb0402183d1beda5d6475485cfba329b1f7dec1ac3f4010db213b93
turtle/localName_with_leading_digit.nt e77c1789b9bc947a129bf97030b2424d144039bf04f6b929f166e20beb880ad5
turtle/localName_with_leading_underscore.nt 5f37fc54e10284c54569b8f38b25e7fc29cf9858e687834d38db5ebff08c133b
turtle/localName_with_nfc_PN_CHARS_BASE_character_boundaries.nt 0b9728bd2900ac9ab14536b51a58af0f38be9a7a376a368ba4930a4bcbf47a00
turtle/localName_with_non_leading_extras.nt de5b040cf03226bc2a7d72aba4a9e0d241df6c746528f36643e2c5cb9c34e610
turtle/localname_with_COLON.nt 260bd80e8655594b0d25ccc2e37aca7bf437a27c3ab9e82c559df084d2cac742
turtle/negative_numeric.nt 214db9d938fe7d8e51f76d884a8dd22d616df13a01b971311d8933aa1aa0b5f3
turtle/nested_blankNodePropertyLists.nt fe4af4f0bdba34b413395dc4ba776558a886d39b7a7a9d12f6a8180b6afd6e6f
turtle/nested_collection.nt 42386272c9c167a44a0f991789f0b70e86b7e9b57f94a09e120da4a69b42d3a3
turtle/number_sign_following_PNAME_NS.nt fb401fca823b8732df129afae19d16667ab413256cf61a03cce0017a5430f922
turtle/number_sign_following_localName.nt a75d5cd3ac2b246124881606e456833c25c79a07ba82c8a5a8d6e86c2cd3ec19
turtle/numeric_with_leading_0.nt 4fb9ab6c639d4a7afb4920409aa1014524e6d8403771443cc970499c6e027ae6
turtle/objectList_with_two_objects.nt 1c0759940fc533207e906bb1cd2eb419f14dc4b0ee7aa1c353031e0a398e72b1
turtle/percent_escaped_localName.nt ca356109f50978834e2885b09ee308a2cf5a4feb486b25c7c8d0c77f853089f9
turtle/positive_numeric.nt c870b5306b201ca4ee25d392b1a1d67b8f7133fb1e9472e7c5cfccea6cf7b4d3
turtle/predicateObjectList_with_blankNodePropertyList_as_object.nt ac9ed490854c6162126b4c87a28ffbefd94e0501ca53eca9d49ae34edef14f24
turtle/predicateObjectList_with_two_objectLists.nt db25156edee6bb1751bf54982d53fe690c7af829a294a70e66c5f9ba63370d0e
turtle/prefix_reassigned_and_used.nt 9a43216f82fbc9d77dfb167c40cd5fa2f21a24acd9386d6c93cd933dafe31017
turtle/repeated_semis_not_at_end.nt 5bc9e7b6045579d82a4275e037239449c2fe1e9378cb02fea42582c3702da675
turtle/reserved_escaped_localName.nt a0e0baf61d9905c032fed239d0175229073f47706098f542526c264eb697912e
turtle/turtle-eval-lists-01.nt 1274608e9f074f17cf1b76f0d2092d02721bbc049e5957794ce94b114da13e3d
turtle/turtle-eval-lists-02.nt bd47240c3395a20bf8f7d570c310667a8dc8c2a1322b19077049c1c205938472
turtle/turtle-eval-lists-03.nt ef17b19697efc11ca198265d2d1226a1066027096b5ea2df4ae8e2544aea1d55
turtle/turtle-eval-lists-04.nt 2ddf01d5fdef71f1f56ebb68c74ce7da26c07e4bf0801b745da3c14b6f24f4a7
turtle/turtle-eval-lists-05.nt fda5ab2ac6c4a176b0b7a711c190e2f1c2745103f5c6124b74b4606176ee9423
turtle/turtle-eval-lists-06.nt 6db0b7bfec3068e0fbb9fee7c979c6f185a9ba86579e5d9065c722124b0a279b
turtle/turtle-eval-struct-01.nt 78a09be1bdb7611a9a5bfa633d728b343fd2a417ff82a4021b4158a676759eac
turtle/turtle-eval-struct-02.nt 800c710eda85bd0db67c6cdcf57a6b82daa110d2c47c1628d42e478028e3c822
turtle/turtle-subm-01.nt ff5bc0a9551d4f305cb13f5da2580738df73e6f105703b52470a7216561c8121
turtle/turtle-subm-02.nt d695f01146621c9b5629e42fc77e71df99d5ac5d956a0751291c7fca6f6d4f9d
turtle/turtle-subm-03.nt 35154fe9e71c7467ac38f1d7ab1cdc371324f3284b7ecf3d92f7c6441dea1704
turtle/turtle-subm-04.nt 0434497bdb12d506086c99c99bb7f3e91959380a60fce4fe21ca3337ad2f5273
turtle/turtle-subm-05.nt db4f5c25b477d37e5f41985b5bd3962a74ae919ae5b409a5c717dc981db5babe
turtle/turtle-subm-06.nt e4fc2d857b798eeef145c1be143cdb7931447490af7646e2e1f581f33d094273
turtle/turtle-subm-07.nt 9afe9cffc723c7a42e7fd07682b8d685de9c6578d962cda7eaeeb483c3d2991c
turtle/turtle-subm-08.nt 84efd3f86b38143a0c53a69ebfd5f8026084a02cb1d132979df8db72921a4cd2
turtle/turtle-subm-09.nt 1c4748b63d46e311794f1535b1509662af0c4048f88d5231930d35dfbe9c1784
turtle/turtle-subm-10.nt cb48ee8f1da5e0c5f4c84dabf55c455b8b82bb42af3fe48e39ae84e65e4372a1
turtle/turtle-subm-11.nt 7a3a76ee84dddec2fa55a8c44e88c7f443e98e559eedfa9b19c2fd1c285efe32
turtle/turtle-subm-12.nt fcfc3b3d49053402a54e4ede3f4c98cc87fd35b4479562d09f19fb19c7c67880
turtle/turtle-subm-13.nt b585190678b1f5500ee2ae198e36f4b05e87468782f4a7f4ac52ea53c5a11b64
turtle/turtle-subm-14.nt fc4c3c08631c93b70c1a6e6002e021e254d8f54c7182f882552896a01d287661
turtle/turtle-subm-15.nt 22788c2e93fd38eb0004cc3b29a21cafcfc18e4b7510e1bebdaba25772a23160
turtle/turtle-subm-16.nt 08c8cc9cd138c8efd4dae74f23f2c2c07e2983e63af43ff5a9216f8004abba67
turtle/turtle-subm-17.nt 90d0936911a19f967bb22bd520b29bc03b8e2c3a1ebcf6477769219a537fe92f
turtle/turtle-subm-18.nt 67ee9572939f063bffaf79ca75497717427a1ba880530d6fa9420cbe9a0566d2
turtle/turtle-subm-19.nt 38a403d0a459985cc08f6ab2a0fd1204153a0421e5d5dab7cc4bdb031d5ae2bb
turtle/turtle-subm-20.nt 72f9ecaf4d0ba14d7bd2e4bfb8dfdeda0cea58d987579509cf7c0ca8e49aade0
turtle/turtle-subm-21.nt 9162047d20665a1ebd059b4763c7dba02d9aa7d337efe1deda09cdacda86de08
turtle/turtle-subm-22.nt b371372cec13e87ef7aeafe5a4b9be5bcd2cdbdc2a32930a4c5c1987d21bf9c4
turtle/turtle-subm-23.nt 69f3a51361b4c891852c1084e2ecd2c49c6597111bdffc9d956c141003b447f8
turtle/turtle-subm-24.nt 1a0e0e1e82fbfbb4571c3a4d258e3c68691c8410f81cbb2b0ae2208db7eaf573
turtle/turtle-subm-25.nt 37765779a328527e28faf5e9edd2f7be0196f63e1425266c6b26700acbf80f46
turtle/turtle-subm-26.nt 9f28839cd67ab0d6168b94c1dae727d315e96ded4933cb8153d9f1538f904996
turtle/turtle-subm-27.nt 2e669a8df07bac9bb94092b033c02b59f2f89edca0488aa3a96c81e2c81751a8
turtle/two_LITERAL_LONG2s.nt 1a24e0d1d658340abf0fa9c881b7f527ed9e88c5416a10cee88b8535ad994efe
turtle/underscore_in_localName.nt 2925eabdbc25dc4a4a3b4cb2c5303d593a4fa19328750f6357f238213098fc9b
`

// writer12PlainSize is the size of what Write produced for the expected
// results of the W3C RDF 1.2 Turtle and TriG eval tests when it wrote every
// rdf:reifies statement as a plain triple: the reification syntax must
// never make the output longer.
const writer12PlainSize = `rdf12-trig/eval/trig12-eval-annotation-01.nq 289
rdf12-trig/eval/trig12-eval-annotation-02.nq 547
rdf12-trig/eval/trig12-eval-annotation-03.nq 638
rdf12-trig/eval/trig12-eval-annotation-04.nq 414
rdf12-trig/eval/trig12-eval-annotation-05.nq 312
rdf12-trig/eval/trig12-eval-annotation-06.nq 305
rdf12-trig/eval/trig12-eval-annotation-07.nq 424
rdf12-trig/eval/trig12-eval-annotation-08.nq 305
rdf12-trig/eval/trig12-eval-annotation-09.nq 410
rdf12-trig/eval/trig12-eval-annotation-10.nq 428
rdf12-trig/eval/trig12-eval-annotation-11.nq 392
rdf12-trig/eval/trig12-eval-annotation-12.nq 413
rdf12-trig/eval/trig12-eval-bnode-1.nq 261
rdf12-trig/eval/trig12-eval-bnode-2.nq 304
rdf12-trig/eval/trig12-eval-reified-triples-annotation-01.nq 354
rdf12-trig/eval/trig12-eval-reified-triples-annotation-02.nq 351
rdf12-trig/eval/trig12-eval-reified-triples-annotation-03.nq 353
rdf12-trig/eval/trig12-eval-rt-01.nq 225
rdf12-trig/eval/trig12-eval-rt-02.nq 216
rdf12-trig/eval/trig12-eval-rt-03.nq 241
rdf12-trig/eval/trig12-eval-rt-04.nq 220
rdf12-trig/eval/trig12-eval-rt-05.nq 188
rdf12-trig/eval/trig12-eval-rt-06.nq 183
rdf12-trig/eval/trig12-eval-rt-07.nq 188
rdf12-trig/eval/trig12-eval-rt-08.nq 183
rdf12-turtle/eval/turtle12-eval-annotation-01.nt 248
rdf12-turtle/eval/turtle12-eval-annotation-02.nt 490
rdf12-turtle/eval/turtle12-eval-annotation-03.nt 577
rdf12-turtle/eval/turtle12-eval-annotation-04.nt 365
rdf12-turtle/eval/turtle12-eval-annotation-05.nt 271
rdf12-turtle/eval/turtle12-eval-annotation-06.nt 264
rdf12-turtle/eval/turtle12-eval-annotation-07.nt 375
rdf12-turtle/eval/turtle12-eval-annotation-08.nt 264
rdf12-turtle/eval/turtle12-eval-annotation-09.nt 365
rdf12-turtle/eval/turtle12-eval-annotation-10.nt 379
rdf12-turtle/eval/turtle12-eval-annotation-11.nt 347
rdf12-turtle/eval/turtle12-eval-annotation-12.nt 413
rdf12-turtle/eval/turtle12-eval-bnode-01.nt 220
rdf12-turtle/eval/turtle12-eval-bnode-02.nt 263
rdf12-turtle/eval/turtle12-eval-reified-triples-annotation-01.nt 313
rdf12-turtle/eval/turtle12-eval-reified-triples-annotation-02.nt 306
rdf12-turtle/eval/turtle12-eval-reified-triples-annotation-03.nt 308
rdf12-turtle/eval/turtle12-eval-rt-01.nt 188
rdf12-turtle/eval/turtle12-eval-rt-02.nt 183
rdf12-turtle/eval/turtle12-eval-rt-03.nt 204
rdf12-turtle/eval/turtle12-eval-rt-04.nt 220
rdf12-turtle/eval/turtle12-eval-rt-05.nt 188
rdf12-turtle/eval/turtle12-eval-rt-06.nt 183
rdf12-turtle/eval/turtle12-eval-rt-07.nt 188
rdf12-turtle/eval/turtle12-eval-rt-08.nt 183
rdf12-turtle/eval/turtle12-eval-tt-01.nt 160
rdf12-turtle/eval/turtle12-eval-tt-02.nt 163
rdf12-turtle/eval/turtle12-eval-tt-03.nt 211
rdf12-turtle/eval/turtle12-eval-tt-04.nt 365
`

// writeExpected writes the expected result of a W3C eval test.
func writeExpected(path string) ([]byte, *rdf.Dataset, error) {
	d, err := parseExpected(path)
	if err != nil {
		return nil, nil, err
	}
	syntax := turtle.Turtle
	if strings.HasSuffix(path, ".nq") {
		syntax = turtle.TriG
	}
	var buf bytes.Buffer
	err = turtle.Write(&buf, d, syntax, turtle.WriteOptions{})
	return buf.Bytes(), d, err
}

// TestWriterRDF11Unchanged checks that the RDF 1.1 expected results are
// written exactly as before.
func TestWriterRDF11Unchanged(t *testing.T) {
	dir := shared.MustPath(t, "conformance")
	pass, total := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(writer11SHA256), "\n") {
		rel, want, _ := strings.Cut(line, " ")
		total++
		out, _, err := writeExpected(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		sum := sha256.Sum256(out)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s: output changed (sha256 %s, want %s):\n%s", rel, got, want, out)
			continue
		}
		pass++
	}
	line := fmt.Sprintf("RDF 1.1 Turtle/TriG expected results written unchanged: %d/%d", pass, total)
	fmt.Println(line)
	t.Log(line)
}

// TestWriterRDF12Compact checks that the RDF 1.2 expected results round
// trip, are written no longer than with plain rdf:reifies triples, and
// start with VERSION "1.2" exactly when they use RDF 1.2 syntax.
func TestWriterRDF12Compact(t *testing.T) {
	dir := shared.MustPath(t, "conformance")
	before, after := 0, 0
	counts := map[string][2]int{} // suite -> passed, total
	for _, line := range strings.Split(strings.TrimSpace(writer12PlainSize), "\n") {
		rel, size, _ := strings.Cut(line, " ")
		plain, err := strconv.Atoi(size)
		if err != nil {
			t.Fatal(err)
		}
		suite, _, _ := strings.Cut(rel, "/")
		c := counts[suite]
		c[1]++
		counts[suite] = c
		path := filepath.Join(dir, filepath.FromSlash(rel))
		out, want, err := writeExpected(path)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		before += plain
		after += len(out)
		if len(out) > plain {
			t.Errorf("%s: %d bytes, longer than the plain form (%d):\n%s", rel, len(out), plain, out)
			continue
		}
		syntax := turtle.Turtle
		if strings.HasSuffix(rel, ".nq") {
			syntax = turtle.TriG
		}
		back := rdf.NewDataset()
		if err := turtle.Parse(bytes.NewReader(out), syntax, back, rdf.ReadOptions{}); err != nil {
			t.Errorf("%s: %v\n%s", rel, err, out)
			continue
		}
		if ok, err := canon.Isomorphic(want, back); err != nil || !ok {
			t.Errorf("%s: round trip not isomorphic (%v):\n%s", rel, err, out)
			continue
		}
		s := string(out)
		uses12 := strings.Contains(s, "<<") || strings.Contains(s, "{|") || strings.Contains(s, " ~")
		if uses12 != strings.HasPrefix(s, "VERSION \"1.2\"\n") {
			t.Errorf("%s: VERSION line does not match the use of RDF 1.2 syntax:\n%s", rel, out)
			continue
		}
		c[0]++
		counts[suite] = c
	}
	for _, suite := range []string{"rdf12-trig", "rdf12-turtle"} {
		line := fmt.Sprintf("writer RDF 1.2 compact %-13s %2d/%2d passed", suite, counts[suite][0], counts[suite][1])
		fmt.Println(line)
		t.Log(line)
	}
	line := fmt.Sprintf("writer RDF 1.2 bytes: %d with plain rdf:reifies triples, %d now", before, after)
	fmt.Println(line)
	t.Log(line)
}

// writeCases are RDF 1.2 datasets (as N-Quads) with the Turtle or TriG
// text the writer must produce, written by hand from the RDF 1.2 Turtle
// grammar.
var writeCases = []struct {
	name, nquads, want string
}{
	{
		name: "annotation with IRI reifier",
		nquads: `<http://x/s> <http://x/p> <http://x/o> .
<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
<http://x/r> <http://x/a> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/s> <http://x/p> <http://x/o> ~ <http://x/r> {| <http://x/a> 1 |} .\n",
	},
	{
		name: "anonymous reifier",
		nquads: `<http://x/s> <http://x/p> <http://x/o> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
_:r <http://x/a> <http://x/b> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/s> <http://x/p> <http://x/o> {| <http://x/a> <http://x/b> |} .\n",
	},
	{
		name: "reifier with no other property",
		nquads: `<http://x/s> <http://x/p> <http://x/o> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
<http://x/i> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/s> <http://x/p> <http://x/o> ~ <http://x/i> ~ .\n",
	},
	{
		name: "reified triple not asserted",
		nquads: `<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> "v" )>> .
<http://x/r> <http://x/a> <http://x/b> .
_:q <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:q <http://x/p> <http://x/o> )>> .
`,
		want: "VERSION \"1.2\"\n\n<< <http://x/s> <http://x/p> \"v\" ~ <http://x/r> >> <http://x/a> <http://x/b> .\n\n<< _:q <http://x/p> <http://x/o> ~ _:q >> .\n",
	},
	{
		name: "reified triple as object",
		nquads: `<http://x/a> <http://x/q> _:r .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/a> <http://x/q> << <http://x/s> <http://x/p> <http://x/o> >> .\n",
	},
	{
		name: "reifier in two graphs",
		nquads: `<http://x/s> <http://x/p> <http://x/o> <http://x/g> .
<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> <http://x/g> .
<http://x/r> <http://x/a> <http://x/b> .
`,
		want: "VERSION \"1.2\"\n\n<http://x/r> <http://x/a> <http://x/b> .\n\nGRAPH <http://x/g> {\n    <http://x/s> <http://x/p> <http://x/o> ~ <http://x/r> .\n}\n",
	},
	{
		name:   "RDF 1.1 only",
		nquads: "<http://x/s> <http://x/p> <http://x/o> .\n",
		want:   "<http://x/s> <http://x/p> <http://x/o> .\n",
	},
}

// roundTripCases are RDF 1.2 datasets (as N-Quads) whose reification
// structure is awkward: they must round trip.
var roundTripCases = []string{
	// Two reifiers that annotate each other's triples (a cycle).
	`_:a <http://x/p> _:b .
_:b <http://x/p> _:a .
_:a <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:b <http://x/p> _:a )>> .
_:b <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:a <http://x/p> _:b )>> .
`,
	`<http://x/a> <http://x/p> <http://x/b> .
<http://x/b> <http://x/p> <http://x/a> .
<http://x/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/b> <http://x/p> <http://x/a> )>> .
<http://x/b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/p> <http://x/b> )>> .
`,
	// IRI reifiers absorbed in two graphs that annotate each other.
	`<http://x/a> <http://x/p> <http://x/b> <http://x/g1> .
<http://x/b> <http://x/p> <http://x/a> <http://x/g1> .
<http://x/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/b> <http://x/p> <http://x/a> )>> <http://x/g1> .
<http://x/b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/p> <http://x/b> )>> <http://x/g1> .
<http://x/a> <http://x/p> <http://x/b> <http://x/g2> .
<http://x/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/p> <http://x/b> )>> <http://x/g2> .
`,
	// One reifier for two asserted triples, and one referenced elsewhere.
	`<http://x/s> <http://x/p> <http://x/o1> .
<http://x/s> <http://x/p> <http://x/o2> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o1> )>> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o2> )>> .
_:r <http://x/a> "x" .
_:q <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o1> )>> .
<http://x/z> <http://x/ref> _:q .
`,
	// A reified list triple, and a list of reified triples.
	`<http://x/s> <http://x/p> _:l1 .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "1" .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
<http://x/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "1" )>> .
<http://x/t> <http://x/p> _:m1 .
_:m1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> _:e .
_:m1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
_:e <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/a> <http://x/b> <http://x/c> )>> .
`,
	// Blank reifier in two graphs, and reifier that is a graph name.
	`<http://x/s> <http://x/p> <http://x/o> <http://x/g> .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> <http://x/g> .
_:r <http://x/a> <http://x/b> .
<http://x/s> <http://x/p> <http://x/o> _:h .
_:h <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> _:h .
`,
}

// chain returns n asserted triples, each annotated by an anonymous
// reifier whose one property is the next triple: nesting n deep.
func chain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "_:r%d <http://x/p> _:r%d .\n", i, i+1)
		fmt.Fprintf(&b, "_:r%d <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:r%d <http://x/p> _:r%d )>> .\n", i+1, i, i+1)
	}
	return b.String()
}

// deepAnnotation returns a triple annotated by a reifier whose property is
// annotated by another, and so on n deep: labelled blank reifiers (they
// occur in triple terms) whose annotation blocks nest past maxNest.
func deepAnnotation(n int) string {
	var b strings.Builder
	b.WriteString("<http://x/s> <http://x/p> <http://x/o> .\n_:r0 <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://x/s> <http://x/p> <http://x/o> )>> .\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "_:r%d <http://x/q> \"%d\" .\n", i, i)
		fmt.Fprintf(&b, "_:r%d <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( _:r%d <http://x/q> \"%d\" )>> .\n", i+1, i, i)
	}
	return b.String()
}

// TestWriterReification checks the RDF 1.2 reification syntax on small
// cases: exact text where it is written by hand, else a round trip.
func TestWriterReification(t *testing.T) {
	read := func(t *testing.T, nq string) *rdf.Dataset {
		d := rdf.NewDataset()
		if err := ntriples.Parse(strings.NewReader(nq), ntriples.NQuads, d, rdf.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range writeCases {
		t.Run(c.name, func(t *testing.T) {
			d := read(t, c.nquads)
			var buf bytes.Buffer
			if err := turtle.Write(&buf, d, turtle.TriG, turtle.WriteOptions{Prefixes: []rdf.Prefix{}}); err != nil {
				t.Fatal(err)
			}
			if buf.String() != c.want {
				t.Errorf("got\n%s\nwant\n%s", buf.String(), c.want)
			}
			if msg := roundTrip(d, turtle.TriG); msg != "" {
				t.Error(msg)
			}
		})
	}
	for i, nq := range append(roundTripCases, chain(3), chain(200), deepAnnotation(200)) {
		if msg := roundTrip(read(t, nq), turtle.TriG); msg != "" {
			t.Errorf("case %d: %s", i, msg)
		}
	}
}
